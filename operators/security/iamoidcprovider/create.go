package iamoidcprovider

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the provider with its client IDs, thumbprints (AWS computes one when none is
// given) and tags (the ownership tags included) and records its ARN. IAM has no idempotency
// token: a provider made by an earlier attempt whose answer was lost, or anyone's provider of
// the same URL, is EntityAlreadyExists, and Observe claims it by its tags.
func (d *driver) Create(ctx context.Context, p *v1alpha1.IAMOIDCProvider, req managed.Request) error {
	in := &iam.CreateOpenIDConnectProviderInput{Url: aws.String(p.Spec.URL), ClientIDList: p.Spec.ClientIDs, ThumbprintList: p.Spec.Thumbprints, Tags: tagList(req.Tags)}
	out, err := d.api.CreateOpenIDConnectProvider(ctx, in)
	if awserr.Code(err) == "EntityAlreadyExists" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create OIDC provider %s: %w", p.Spec.URL, err)
	}
	managed.SetExternalName(p, aws.ToString(out.OpenIDConnectProviderArn))
	return nil
}
