package iamoidcprovider

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the provider; the roles whose trust policies name it are left as they are.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.IAMOIDCProvider, obs managed.Observation[State]) error {
	arn := obs.State.ARN
	_, err := d.api.DeleteOpenIDConnectProvider(ctx, &iam.DeleteOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete OIDC provider %s", arn)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the provider, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.IAMOIDCProvider, obs managed.Observation[State]) error {
	arn := obs.State.ARN
	_, err := d.api.UntagOpenIDConnectProvider(ctx, &iam.UntagOpenIDConnectProviderInput{OpenIDConnectProviderArn: aws.String(arn), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of OIDC provider %s", arn)
}
