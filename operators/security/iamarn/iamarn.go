// Package iamarn builds the ARNs of IAM resources that the security family's kinds find by a name
// the spec gives (a customer managed policy, an OpenID Connect provider), from the account of the
// provider's credentials: IAM is global, so an ARN holds no region, only the partition.
package iamarn

import (
	"context"

	"github.com/runner-codes/infra-operator/shared/provider"
)

// For returns the ARN of the IAM resource named resource ("policy/team/reader",
// "oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/EXAMPLE") in the session's account and
// partition: arn:<partition>:iam::<account>:<resource>.
func For(ctx context.Context, s *provider.Session, resource string) (string, error) {
	account, err := s.AccountID(ctx)
	if err != nil {
		return "", err
	}
	return "arn:" + provider.Partition(s.Config.Region) + ":iam::" + account + ":" + resource, nil
}
