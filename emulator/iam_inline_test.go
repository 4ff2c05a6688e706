package emulator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestIAMInlinePolicies checks PutRolePolicy, GetRolePolicy, ListRolePolicies and
// DeleteRolePolicy: documents URL-encoded, AWS's checks, the quota of 10,240 characters for a
// role's inline policies together, and DeleteRole's conflict.
func TestIAMInlinePolicies(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	newRole(t, c, "reader")
	role := aws.String("reader")
	put := func(name, doc string) error {
		_, err := c.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: role, PolicyName: aws.String(name), PolicyDocument: aws.String(doc)})
		return err
	}
	if err := put("s3-access", s3Read); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: role, PolicyName: aws.String("s3-access")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s3Read, decodeDocument(t, got.PolicyDocument)); diff != "" || aws.ToString(got.RoleName) != "reader" || aws.ToString(got.PolicyName) != "s3-access" {
		t.Errorf("GetRolePolicy: %+v\n-want +got document:\n%s", got, diff)
	}
	replaced := strings.Replace(s3Read, "s3:ListBucket", "s3:GetObjectTagging", 1)
	if err := put("s3-access", replaced); err != nil {
		t.Fatal(err)
	}
	got, err = c.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: role, PolicyName: aws.String("s3-access")})
	if err != nil || decodeDocument(t, got.PolicyDocument) != replaced {
		t.Errorf("PutRolePolicy replaces a policy of the same name: %+v, %v", got, err)
	}
	cases := map[string]struct {
		reason, name, doc, want string
	}{
		"NoVersion":  {"An inline policy may leave Version out (2008-10-17).", "legacy", `{"Statement":{"Effect":"Allow","Action":"sqs:SendMessage","Resource":"*"}}`, ""},
		"Principal":  {"An identity-based policy names no principal.", "principal", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Principal":"*","Action":"s3:*","Resource":"*"}}`, "MalformedPolicyDocument"},
		"NoResource": {"An identity-based policy names resources.", "nores", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*"}}`, "MalformedPolicyDocument"},
		"NotJSON":    {"A policy is JSON.", "notjson", `Allow s3:*`, "MalformedPolicyDocument"},
		"BadName":    {"Names are letters, digits and +=,.@_-.", "s3 access", s3Read, "ValidationError"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(put(tc.name, tc.doc))); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	big := func(n int) string {
		return `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","Resource":"arn:aws:s3:::` + strings.Repeat("b", n) + `"}}`
	}
	if err := put("big-1", big(5000)); err != nil {
		t.Fatal(err)
	}
	if err := put("big-2", big(5000)); errorCode(err) != "LimitExceeded" {
		t.Errorf("inline policies above 10,240 characters together: %v, want LimitExceeded", err)
	}
	if err := put("big-1", big(5100)); err != nil {
		t.Errorf("replacing a policy counts the new document in place of the old: %v", err)
	}
	list, err := c.ListRolePolicies(ctx, &iam.ListRolePoliciesInput{RoleName: role, MaxItems: aws.Int32(2)})
	if err != nil || !list.IsTruncated || fmt.Sprint(list.PolicyNames) != "[big-1 legacy]" {
		t.Errorf("first page of inline policies: %+v, %v; want [big-1 legacy], truncated", list, err)
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: role}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting a role with inline policies: %v, want DeleteConflict", err)
	}
	for _, name := range []string{"big-1", "legacy", "s3-access"} {
		if _, err := c.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: role, PolicyName: aws.String(name)}); err != nil {
			t.Fatalf("DeleteRolePolicy %s: %v", name, err)
		}
	}
	if _, err := c.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: role, PolicyName: aws.String("s3-access")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("a deleted inline policy: %v, want NoSuchEntity", err)
	}
	if _, err := c.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: role, PolicyName: aws.String("s3-access")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("deleting it again: %v, want NoSuchEntity", err)
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: role}); err != nil {
		t.Errorf("deleting the role once its policies are gone: %v", err)
	}
}
