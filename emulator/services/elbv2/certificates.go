package elbv2

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
)

// certificateARNs returns the ARNs of the ACM certificates among a listener's certificates.
func certificateARNs(certs []types.Certificate) []string {
	var out []string
	for _, c := range certs {
		if arn := aws.ToString(c.CertificateArn); strings.Contains(arn, ":acm:") {
			out = append(out, arn)
		}
	}
	return out
}

// recordCertificateUsers tells ACM, for each of the certificates arns, which load balancers of
// the region use it through a listener now: after a listener was created, changed or deleted,
// arns are its certificates before and after. The caller holds the backend's mutex.
func (b *Backend) recordCertificateUsers(r *region, arns []string) {
	for _, arn := range slices.Compact(slices.Sorted(slices.Values(arns))) {
		var users []string
		for _, l := range r.listeners {
			if slices.Contains(certificateARNs(l.certs), arn) && !slices.Contains(users, l.lb) {
				users = append(users, l.lb)
			}
		}
		slices.Sort(users)
		b.certs.SetInUseBy(r.scope, arn, users)
	}
}
