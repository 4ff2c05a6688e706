package iamrole

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the role with its trust policy, settings and tags (the ownership tags
// included, so a role whose name was recorded too late is still recognised) and records its
// name; its policies and instance profile follow as changes of the next look, in the same pass.
// IAM has no idempotency token: a role made by an earlier attempt whose answer was lost is
// EntityAlreadyExists, and Observe claims it by its tags.
func (d *driver) Create(ctx context.Context, r *v1alpha1.IAMRole, req managed.Request) error {
	in := &iam.CreateRoleInput{RoleName: aws.String(r.Spec.RoleName), AssumeRolePolicyDocument: aws.String(r.Spec.AssumeRolePolicyDocument),
		Tags: tagList(req.Tags)}
	if r.Spec.Path != "" {
		in.Path = aws.String(r.Spec.Path)
	}
	if r.Spec.Description != "" {
		in.Description = aws.String(r.Spec.Description)
	}
	if r.Spec.MaxSessionDuration != 0 {
		in.MaxSessionDuration = aws.Int32(r.Spec.MaxSessionDuration)
	}
	if r.Spec.PermissionsBoundary != "" {
		in.PermissionsBoundary = aws.String(r.Spec.PermissionsBoundary)
	}
	_, err := d.api.CreateRole(ctx, in)
	if awserr.Code(err) == "EntityAlreadyExists" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create role %s: %w", r.Spec.RoleName, err)
	}
	managed.SetExternalName(r, r.Spec.RoleName)
	return nil
}
