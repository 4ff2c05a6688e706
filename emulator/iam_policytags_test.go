package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestIAMPolicyTags checks TagPolicy, ListPolicyTags and UntagPolicy on a customer managed
// policy, the AccessDenied an AWS managed policy answers, and NoSuchEntity for a policy that
// does not exist.
func TestIAMPolicyTags(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	out, err := c.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String("tagged"), PolicyDocument: aws.String(s3Read),
		Tags: []iamtypes.Tag{{Key: aws.String("team"), Value: aws.String("orders")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.Policy.Arn
	if _, err := c.TagPolicy(ctx, &iam.TagPolicyInput{PolicyArn: arn, Tags: []iamtypes.Tag{{Key: aws.String("env"), Value: aws.String("prod")},
		{Key: aws.String("team"), Value: aws.String("billing")}}}); err != nil {
		t.Fatal(err)
	}
	list := func() map[string]string {
		t.Helper()
		got, err := c.ListPolicyTags(ctx, &iam.ListPolicyTagsInput{PolicyArn: arn})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, tag := range got.Tags {
			m[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
		}
		return m
	}
	if diff := cmp.Diff(map[string]string{"env": "prod", "team": "billing"}, list()); diff != "" {
		t.Errorf("tags after TagPolicy (-want +got):\n%s", diff)
	}
	if _, err := c.UntagPolicy(ctx, &iam.UntagPolicyInput{PolicyArn: arn, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"env": "prod"}, list()); diff != "" {
		t.Errorf("tags after UntagPolicy (-want +got):\n%s", diff)
	}
	awsManaged := aws.String("arn:aws:iam::aws:policy/ReadOnlyAccess")
	if _, err := c.TagPolicy(ctx, &iam.TagPolicyInput{PolicyArn: awsManaged, Tags: []iamtypes.Tag{{Key: aws.String("k"), Value: aws.String("v")}}}); errorCode(err) != "AccessDenied" {
		t.Errorf("TagPolicy on an AWS managed policy: %v, want AccessDenied", err)
	}
	missing := out.Policy.Arn
	if _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: missing}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListPolicyTags(ctx, &iam.ListPolicyTagsInput{PolicyArn: missing}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("ListPolicyTags of a deleted policy: %v, want NoSuchEntity", err)
	}
}

// TestIAMDeleteAttachedPolicy checks that IAM refuses to delete a policy attached to a role
// (DeleteConflict), as AWS documents, and deletes it once detached.
func TestIAMDeleteAttachedPolicy(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	arn := newPolicy(t, c, "attached", s3Read).Arn
	if _, err := c.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("holder"), AssumeRolePolicyDocument: aws.String(lambdaTrust)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("holder"), PolicyArn: arn}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: arn})
	if err != nil || aws.ToInt32(got.Policy.AttachmentCount) != 1 {
		t.Fatalf("GetPolicy of an attached policy: %+v, %v; want AttachmentCount 1", got, err)
	}
	if _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: arn}); errorCode(err) != "DeleteConflict" {
		t.Errorf("DeletePolicy of an attached policy: %v, want DeleteConflict", err)
	}
	if _, err := c.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: aws.String("holder"), PolicyArn: arn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: arn}); err != nil {
		t.Errorf("DeletePolicy once detached: %v", err)
	}
}
