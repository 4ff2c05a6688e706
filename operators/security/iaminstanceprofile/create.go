package iaminstanceprofile

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the instance profile with its path and tags (the ownership tags included),
// records its name and puts its role in. IAM has no idempotency token: a profile made by an
// earlier attempt whose answer was lost is EntityAlreadyExists, and Observe claims it by its
// tags and adds the role then.
func (d *driver) Create(ctx context.Context, p *v1alpha1.IAMInstanceProfile, req managed.Request) error {
	name := p.Spec.InstanceProfileName
	in := &iam.CreateInstanceProfileInput{InstanceProfileName: aws.String(name), Tags: tagList(req.Tags)}
	if p.Spec.Path != "" {
		in.Path = aws.String(p.Spec.Path)
	}
	_, err := d.api.CreateInstanceProfile(ctx, in)
	if awserr.Code(err) == "EntityAlreadyExists" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create instance profile %s: %w", name, err)
	}
	managed.SetExternalName(p, name)
	return d.setRole(ctx, name, nil, p.Spec.RoleName)
}
