package iampolicy

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the policy with its document as version v1, its path, description and tags
// (the ownership tags included) and records its ARN. IAM has no idempotency token: a policy
// made by an earlier attempt whose answer was lost is EntityAlreadyExists, and Observe claims
// it by its tags.
func (d *driver) Create(ctx context.Context, p *v1alpha1.IAMPolicy, req managed.Request) error {
	in := &iam.CreatePolicyInput{PolicyName: aws.String(p.Spec.PolicyName), PolicyDocument: aws.String(p.Spec.PolicyDocument), Tags: tagList(req.Tags)}
	if p.Spec.Path != "" {
		in.Path = aws.String(p.Spec.Path)
	}
	if p.Spec.Description != "" {
		in.Description = aws.String(p.Spec.Description)
	}
	out, err := d.api.CreatePolicy(ctx, in)
	if awserr.Code(err) == "EntityAlreadyExists" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create policy %s: %w", p.Spec.PolicyName, err)
	}
	managed.SetExternalName(p, aws.ToString(out.Policy.Arn))
	return nil
}
