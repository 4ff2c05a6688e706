package ec2

import (
	"net/netip"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// parseCIDR reads an IPv4 (or, with v6, IPv6) CIDR block that names a network (no host bits
// set); param names the parameter in the error, as EC2's messages do.
func parseCIDR(s, param string, v6 bool) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil || p.Addr().Is6() != v6 || p.Masked() != p {
		return netip.Prefix{}, core.Errorf("InvalidParameterValue", "Value (%s) for parameter %s is invalid. This is not a valid CIDR block.", s, param)
	}
	return p, nil
}

// contains reports whether block inner lies within block outer.
func contains(outer, inner netip.Prefix) bool {
	return outer.Bits() <= inner.Bits() && outer.Contains(inner.Addr())
}

// nth returns the n-th address of a block (0 is the network address).
func nth(p netip.Prefix, n int) netip.Addr {
	a := p.Addr()
	for range n {
		a = a.Next()
	}
	return a
}
