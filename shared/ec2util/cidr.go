package ec2util

import "net/netip"

// CanonicalCIDR returns a range in the form EC2 shows it (network address, lower case,
// shortest IPv6 form), so that a spec's range and AWS's compare equal whatever the spelling.
// A string that is not a range is returned as it is.
func CanonicalCIDR(s string) string {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return s
	}
	return p.Masked().String()
}
