package main

import (
	"fmt"
	"io"
	"net"
	"strings"
)

// loopbackOnly reports whether the listen address (host:port, or a bare host) can be reached
// from this machine only: a 127.0.0.0/8 or ::1 address, or localhost. An empty host, an
// unspecified address (0.0.0.0, ::) and every other name or address can be reached from
// elsewhere.
func loopbackOnly(address string) bool {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = strings.Trim(address, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// warnExposed writes a warning to w when the emulator listens on address (its bound address)
// where other machines can reach it; tokenSet says whether the admin endpoints need a token.
func warnExposed(w io.Writer, address string, tokenSet bool) {
	if loopbackOnly(address) {
		return
	}
	admin := "its /_emulator/ endpoints (fault injection, clock, state dump) are OPEN to them: set --admin-token or $" + adminTokenEnv + "."
	if tokenSet {
		admin = "its /_emulator/ endpoints need the admin token, but every AWS API call is still open."
	}
	fmt.Fprintf(w, `emulator: ******************************************************************
emulator: WARNING: listening on %s, which is NOT a loopback address.
emulator: Anyone who can reach it can create, read and delete everything the emulator holds:
emulator: it accepts any AWS credentials and checks no signature.
emulator: %s
emulator: Listen on 127.0.0.1 (the default) unless you mean to share it on a trusted network.
emulator: ******************************************************************
`, address, admin)
}
