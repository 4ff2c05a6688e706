package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoopbackOnly checks which listen addresses other machines cannot reach.
func TestLoopbackOnly(t *testing.T) {
	cases := map[string]struct {
		address string
		want    bool
	}{
		"IPv4Loopback":       {"127.0.0.1:4566", true},
		"OtherIPv4Loopback":  {"127.1.2.3:4566", true},
		"IPv6Loopback":       {"[::1]:4566", true},
		"Localhost":          {"localhost:4566", true},
		"LocalhostUpperCase": {"LOCALHOST:4566", true},
		"BareLoopbackHost":   {"127.0.0.1", true},
		"MappedIPv4Loopback": {"[::ffff:127.0.0.1]:4566", true},
		"AllInterfaces":      {":4566", false},
		"IPv4Unspecified":    {"0.0.0.0:4566", false},
		"IPv6Unspecified":    {"[::]:4566", false},
		"PrivateAddress":     {"192.168.1.10:4566", false},
		"PublicIPv6":         {"[2001:db8::1]:4566", false},
		"HostName":           {"emulator.example.com:4566", false},
		"LocalhostLookalike": {"localhost.example.com:4566", false},
		"OutsideLoopbackNet": {"128.0.0.1:4566", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, loopbackOnly(tc.address)); diff != "" {
				t.Errorf("loopbackOnly(%q) -want +got:\n%s", tc.address, diff)
			}
		})
	}
}

// TestWarnExposed checks that the warning is written for a reachable address only, and says
// whether the admin endpoints are open.
func TestWarnExposed(t *testing.T) {
	type args struct {
		address  string
		tokenSet bool
	}
	cases := map[string]struct {
		reason string
		args   args
		want   []string
	}{
		"Loopback": {
			reason: "A loopback address needs no warning.",
			args:   args{address: "127.0.0.1:4566"},
		},
		"ExposedWithoutToken": {
			reason: "A reachable emulator without a token has open admin endpoints.",
			args:   args{address: "[::]:4566"},
			want:   []string{"WARNING: listening on [::]:4566, which is NOT a loopback address", "are OPEN", "--admin-token"},
		},
		"ExposedWithToken": {
			reason: "A reachable emulator with a token still serves AWS calls to anyone.",
			args:   args{address: "0.0.0.0:4566", tokenSet: true},
			want:   []string{"WARNING: listening on 0.0.0.0:4566", "need the admin token", "every AWS API call is still open"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			warnExposed(&buf, tc.args.address, tc.args.tokenSet)
			var got []string
			for _, w := range tc.want {
				if strings.Contains(buf.String(), w) {
					got = append(got, w)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nwarning parts (-want +got):\n%s\nwarning:\n%s", tc.reason, diff, buf.String())
			}
			if len(tc.want) == 0 && buf.Len() != 0 {
				t.Errorf("%s\nunexpected warning:\n%s", tc.reason, buf.String())
			}
			if len(tc.want) > 0 && strings.Count(buf.String(), "\n") < 5 {
				t.Errorf("%s\nthe warning should stand out over several lines:\n%s", tc.reason, buf.String())
			}
		})
	}
}
