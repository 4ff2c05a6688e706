package emulator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// seededPolicies are the AWS managed policies the product's documentation attaches, which must
// exist in every account.
var seededPolicies = []string{
	"arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore",
	"arn:aws:iam::aws:policy/CloudWatchAgentServerPolicy",
	"arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
	"arn:aws:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole",
	"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess",
	"arn:aws:iam::aws:policy/AmazonEKSClusterPolicy",
	"arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
	"arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
	"arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
	"arn:aws:iam::aws:policy/AdministratorAccess",
	"arn:aws:iam::aws:policy/ReadOnlyAccess",
}

// newPolicy creates a customer managed policy with document, or fails the test.
func newPolicy(t *testing.T, c *iam.Client, name, document string) *iamtypes.Policy {
	t.Helper()
	out, err := c.CreatePolicy(context.Background(), &iam.CreatePolicyInput{PolicyName: aws.String(name), PolicyDocument: aws.String(document)})
	if err != nil {
		t.Fatalf("CreatePolicy %s: %v", name, err)
	}
	return out.Policy
}

// TestIAMManagedPolicies checks CreatePolicy and GetPolicy, and AWS's checks of managed policy
// documents.
func TestIAMManagedPolicies(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	out, err := c.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String("orders-read"), Path: aws.String("/apps/"), PolicyDocument: aws.String(s3Read),
		Description: aws.String("Read the orders bucket"), Tags: []iamtypes.Tag{{Key: aws.String("team"), Value: aws.String("orders")}}})
	if err != nil {
		t.Fatal(err)
	}
	p := out.Policy
	if got, want := aws.ToString(p.Arn), "arn:aws:iam::000000000000:policy/apps/orders-read"; got != want {
		t.Errorf("Arn %s, want %s", got, want)
	}
	if !policyIDPattern.MatchString(aws.ToString(p.PolicyId)) || aws.ToString(p.DefaultVersionId) != "v1" || !p.IsAttachable ||
		aws.ToInt32(p.AttachmentCount) != 0 || p.CreateDate == nil || p.UpdateDate == nil {
		t.Errorf("CreatePolicy answered %+v", p)
	}
	got, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: p.Arn})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(got.Policy.Description) != "Read the orders bucket" || len(got.Policy.Tags) != 1 || aws.ToString(got.Policy.PolicyId) != aws.ToString(p.PolicyId) {
		t.Errorf("GetPolicy answered %+v", got.Policy)
	}
	cases := map[string]struct {
		reason, name, document string
		want                   string
	}{
		"TakenAnyCase":   {"Policy names are unique without regard to case.", "ORDERS-READ", s3Read, "EntityAlreadyExists"},
		"NoVersion":      {"A managed policy must be in language version 2012-10-17.", "v-none", strings.Replace(s3Read, `"Version":"2012-10-17",`, "", 1), "MalformedPolicyDocument"},
		"OldVersion":     {"A managed policy must be in language version 2012-10-17.", "v-2008", strings.Replace(s3Read, "2012-10-17", "2008-10-17", 1), "MalformedPolicyDocument"},
		"Principal":      {"An identity-based policy names no principal.", "principal", strings.Replace(s3Read, `"Action"`, `"Principal":"*","Action"`, 1), "MalformedPolicyDocument"},
		"NoResource":     {"An identity-based policy names resources.", "no-resource", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*"}}`, "MalformedPolicyDocument"},
		"NoAction":       {"A statement has actions.", "no-action", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Resource":"*"}}`, "MalformedPolicyDocument"},
		"BothActions":    {"A statement has Action or NotAction, not both.", "both", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","NotAction":"iam:*","Resource":"*"}}`, "MalformedPolicyDocument"},
		"UnknownElement": {"Only the grammar's elements.", "unknown", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","Resource":"*","Color":"red"}}`, "MalformedPolicyDocument"},
		"RepeatedSid":    {"Statement IDs are unique.", "sids", `{"Version":"2012-10-17","Statement":[{"Sid":"A","Effect":"Allow","Action":"s3:*","Resource":"*"},{"Sid":"A","Effect":"Deny","Action":"s3:*","Resource":"*"}]}`, "MalformedPolicyDocument"},
		"BadResource":    {"Resources are ARNs or *.", "resource", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","Resource":"orders"}}`, "MalformedPolicyDocument"},
		"TwoColons":      {"An action has one colon.", "colons", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:Get:Object","Resource":"*"}}`, "MalformedPolicyDocument"},
		"Wildcards":      {"NotAction, NotResource, wildcards and conditions are fine.", "wild", `{"Version":"2012-10-17","Id":"x","Statement":{"Effect":"Deny","NotAction":["iam:*","sts:*"],"NotResource":"arn:aws:s3:::*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}}`, ""},
		"TooLarge":       {"A managed policy has at most 6,144 characters.", "large", `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"s3:*","Resource":["arn:aws:s3:::` + strings.Repeat("b", 6200) + `"]}}`, "LimitExceeded"},
		"LargeWithSpace": {"Whitespace does not count towards the size.", "spaced", `{"Version":"2012-10-17",` + strings.Repeat(" ", 7000) + `"Statement":{"Effect":"Allow","Action":"s3:*","Resource":"*"}}`, ""},
		"BadName":        {"Names are letters, digits and +=,.@_-.", "orders read", s3Read, "ValidationError"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String(tc.name), PolicyDocument: aws.String(tc.document)})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s (%v)\n-want +got:\n%s", tc.reason, err, diff)
			}
		})
	}
	if _, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String("arn:aws:iam::000000000000:policy/none")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("GetPolicy of a missing policy: %v, want NoSuchEntity", err)
	}
	if _, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String("arn:aws:iam::000000000000:policy/orders-read")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("GetPolicy without the policy's path: %v, want NoSuchEntity", err)
	}
	if _, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String("orders-read-policy-name")}); errorCode(err) != "InvalidInput" {
		t.Errorf("GetPolicy of a name, not an ARN: %v, want InvalidInput", err)
	}
}

// TestIAMPolicyVersions checks the versions of a managed policy: at most five, IDs that count up,
// the default that cannot be deleted, documents URL-encoded, and DeletePolicy's conflicts.
func TestIAMPolicyVersions(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	arn := newPolicy(t, c, "versioned", s3Read).Arn
	doc := func(action string) *string {
		return aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"` + action + `","Resource":"*"}]}`)
	}
	v2, err := c.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: arn, PolicyDocument: doc("s3:PutObject"), SetAsDefault: true})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(v2.PolicyVersion.VersionId) != "v2" || !v2.PolicyVersion.IsDefaultVersion {
		t.Errorf("the second version: %+v; want v2, the default", v2.PolicyVersion)
	}
	for _, action := range []string{"s3:DeleteObject", "s3:ListBucket", "s3:GetBucketTagging"} {
		if _, err := c.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: arn, PolicyDocument: doc(action)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: arn, PolicyDocument: doc("s3:*")}); errorCode(err) != "LimitExceeded" {
		t.Errorf("a sixth version: %v, want LimitExceeded", err)
	}
	if _, err := c.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: arn, PolicyDocument: aws.String("{")}); errorCode(err) != "MalformedPolicyDocument" {
		t.Errorf("a malformed version: %v, want MalformedPolicyDocument", err)
	}
	list, err := c.ListPolicyVersions(ctx, &iam.ListPolicyVersionsInput{PolicyArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range list.Versions {
		ids = append(ids, fmt.Sprintf("%s:%v:%v", aws.ToString(v.VersionId), v.IsDefaultVersion, v.Document != nil))
	}
	if diff := cmp.Diff([]string{"v5:false:false", "v4:false:false", "v3:false:false", "v2:true:false", "v1:false:false"}, ids); diff != "" {
		t.Errorf("ListPolicyVersions, newest first, without documents\n-want +got:\n%s", diff)
	}
	got, err := c.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: arn, VersionId: aws.String("v2")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(aws.ToString(doc("s3:PutObject")), decodeDocument(t, got.PolicyVersion.Document)); diff != "" {
		t.Errorf("GetPolicyVersion's document\n-want +got:\n%s", diff)
	}
	if _, err := c.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: arn, VersionId: aws.String("v9")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("a version that does not exist: %v, want NoSuchEntity", err)
	}
	if _, err := c.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: arn, VersionId: aws.String("2")}); errorCode(err) != "ValidationError" {
		t.Errorf("a malformed version ID: %v, want ValidationError", err)
	}
	if _, err := c.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: arn, VersionId: aws.String("v2")}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting the default version: %v, want DeleteConflict", err)
	}
	if _, err := c.SetDefaultPolicyVersion(ctx, &iam.SetDefaultPolicyVersionInput{PolicyArn: arn, VersionId: aws.String("v5")}); err != nil {
		t.Fatal(err)
	}
	policy, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: arn})
	if err != nil || aws.ToString(policy.Policy.DefaultVersionId) != "v5" {
		t.Errorf("after SetDefaultPolicyVersion: %+v, %v; want v5 the default", policy, err)
	}
	if _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: arn}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting a policy with versions: %v, want DeleteConflict", err)
	}
	for _, v := range []string{"v1", "v2", "v3", "v4"} {
		if _, err := c.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: arn, VersionId: aws.String(v)}); err != nil {
			t.Fatalf("DeletePolicyVersion %s: %v", v, err)
		}
	}
	v6, err := c.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: arn, PolicyDocument: doc("s3:*")})
	if err != nil || aws.ToString(v6.PolicyVersion.VersionId) != "v6" {
		t.Errorf("a version after deletions: %+v, %v; want v6, as IDs are not reused", v6, err)
	}
	if _, err := c.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: arn, VersionId: aws.String("v6")}); err != nil {
		t.Fatal(err)
	}
	newRole(t, c, "user")
	if _, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("user"), PolicyArn: arn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: arn}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting an attached policy: %v, want DeleteConflict", err)
	}
	if _, err := c.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: aws.String("user"), PolicyArn: arn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: arn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: arn}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("a deleted policy: %v, want NoSuchEntity", err)
	}
}

// TestIAMAWSManagedPolicies checks the catalogue: every policy the product's documentation names
// exists in every account with its document, counts attachments per account, and cannot be
// changed.
func TestIAMAWSManagedPolicies(t *testing.T) {
	_, url := start(t, emulator.Options{Accounts: map[string]string{"AKIDOTHER": "111111111111"}})
	c := iam.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	other := iam.NewFromConfig(sdkConfig(t, url, "AKIDOTHER", 1))
	ctx := context.Background()
	for _, arn := range seededPolicies {
		p, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(arn)})
		if err != nil {
			t.Errorf("GetPolicy %s: %v", arn, err)
			continue
		}
		v, err := c.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: aws.String(arn), VersionId: p.Policy.DefaultVersionId})
		if err != nil || !v.PolicyVersion.IsDefaultVersion || !strings.Contains(decodeDocument(t, v.PolicyVersion.Document), `"Statement"`) {
			t.Errorf("the default version of %s: %+v, %v", arn, v, err)
		}
	}
	lambda := aws.String("arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole")
	p, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: lambda})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(p.Policy.Path) != "/service-role/" || aws.ToString(p.Policy.PolicyName) != "AWSLambdaBasicExecutionRole" || !policyIDPattern.MatchString(aws.ToString(p.Policy.PolicyId)) {
		t.Errorf("AWSLambdaBasicExecutionRole: %+v", p.Policy)
	}
	newRole(t, c, "fn")
	if _, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("fn"), PolicyArn: lambda}); err != nil {
		t.Fatal(err)
	}
	mine, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: lambda})
	if err != nil || aws.ToInt32(mine.Policy.AttachmentCount) != 1 {
		t.Errorf("attachments in the account that attached it: %+v, %v; want 1", mine, err)
	}
	theirs, err := other.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: lambda})
	if err != nil || aws.ToInt32(theirs.Policy.AttachmentCount) != 0 {
		t.Errorf("attachments in another account: %+v, %v; want 0", theirs, err)
	}
	for name, call := range map[string]func() error{
		"DeletePolicy": func() error { _, err := c.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: lambda}); return err },
		"CreatePolicyVersion": func() error {
			_, err := c.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: lambda, PolicyDocument: aws.String(s3Read)})
			return err
		},
		"DeletePolicyVersion": func() error {
			_, err := c.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: lambda, VersionId: aws.String("v1")})
			return err
		},
		"SetDefaultPolicyVersion": func() error {
			_, err := c.SetDefaultPolicyVersion(ctx, &iam.SetDefaultPolicyVersionInput{PolicyArn: lambda, VersionId: aws.String("v1")})
			return err
		},
	} {
		if err := call(); errorCode(err) != "AccessDenied" {
			t.Errorf("%s of an AWS managed policy: %v, want AccessDenied", name, err)
		}
	}
	if _, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String("arn:aws:iam::aws:policy/NoSuchManagedPolicy")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("an AWS managed policy that does not exist: %v, want NoSuchEntity", err)
	}
}

// TestIAMListPolicies checks ListPolicies' Scope, OnlyAttached and PathPrefix filters and its
// paging.
func TestIAMListPolicies(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	for i := range 3 {
		newPolicy(t, c, fmt.Sprintf("local-%d", i), s3Read)
	}
	newRole(t, c, "app")
	if _, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("app"), PolicyArn: aws.String("arn:aws:iam::000000000000:policy/local-1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("app"), PolicyArn: aws.String(seededPolicies[0])}); err != nil {
		t.Fatal(err)
	}
	count := func(in *iam.ListPoliciesInput) int {
		t.Helper()
		n := 0
		pages := iam.NewListPoliciesPaginator(c, in)
		for pages.HasMorePages() {
			p, err := pages.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, policy := range p.Policies {
				if policy.Description != nil || policy.Tags != nil {
					t.Errorf("ListPolicies gave %s's description or tags", aws.ToString(policy.PolicyName))
				}
			}
			n += len(p.Policies)
		}
		return n
	}
	local := count(&iam.ListPoliciesInput{Scope: iamtypes.PolicyScopeTypeLocal})
	awsManaged := count(&iam.ListPoliciesInput{Scope: iamtypes.PolicyScopeTypeAws, MaxItems: aws.Int32(5)})
	all := count(&iam.ListPoliciesInput{MaxItems: aws.Int32(7)})
	if local != 3 || awsManaged < len(seededPolicies) || all != local+awsManaged {
		t.Errorf("Local %d, AWS %d, All %d; want 3, at least %d, and their sum", local, awsManaged, all, len(seededPolicies))
	}
	if n := count(&iam.ListPoliciesInput{OnlyAttached: true}); n != 2 {
		t.Errorf("OnlyAttached: %d policies, want 2", n)
	}
	if n := count(&iam.ListPoliciesInput{Scope: iamtypes.PolicyScopeTypeAws, PathPrefix: aws.String("/service-role/")}); n < 2 {
		t.Errorf("PathPrefix /service-role/: %d policies, want the Lambda execution roles at least", n)
	}
	first, err := c.ListPolicies(ctx, &iam.ListPoliciesInput{Scope: iamtypes.PolicyScopeTypeLocal, MaxItems: aws.Int32(2)})
	if err != nil || len(first.Policies) != 2 || !first.IsTruncated || aws.ToString(first.Policies[0].PolicyName) != "local-0" {
		t.Errorf("first page of local policies: %+v, %v", first, err)
	}
}

// TestIAMAttachRolePolicy checks attaching and detaching managed policies: AWS's errors, the
// quota of ten a role, paging, and DeleteRole's conflict.
func TestIAMAttachRolePolicy(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	newRole(t, c, "busy")
	role := aws.String("busy")
	attach := func(arn string) error {
		_, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: role, PolicyArn: aws.String(arn)})
		return err
	}
	if err := attach("arn:aws:iam::000000000000:policy/none"); errorCode(err) != "NoSuchEntity" {
		t.Errorf("an unknown policy: %v, want NoSuchEntity", err)
	}
	if err := attach("arn:aws:iam::aws:policy/NoSuchManagedPolicy"); errorCode(err) != "NoSuchEntity" {
		t.Errorf("an unknown AWS managed policy: %v, want NoSuchEntity", err)
	}
	if err := attach("AdministratorAccess"); errorCode(err) != "InvalidInput" {
		t.Errorf("a policy name, not an ARN: %v, want InvalidInput", err)
	}
	for i := range 8 {
		newPolicy(t, c, fmt.Sprintf("p%d", i), s3Read)
		if err := attach(fmt.Sprintf("arn:aws:iam::000000000000:policy/p%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, arn := range seededPolicies[:2] {
		if err := attach(arn); err != nil {
			t.Fatal(err)
		}
	}
	if err := attach(seededPolicies[0]); err != nil {
		t.Errorf("attaching an attached policy again: %v, want success", err)
	}
	if err := attach(seededPolicies[2]); errorCode(err) != "LimitExceeded" {
		t.Errorf("an eleventh policy: %v, want LimitExceeded", err)
	}
	page, err := c.ListAttachedRolePolicies(ctx, &iam.ListAttachedRolePoliciesInput{RoleName: role, MaxItems: aws.Int32(4)})
	if err != nil || len(page.AttachedPolicies) != 4 || !page.IsTruncated || aws.ToString(page.AttachedPolicies[0].PolicyName) != "p0" {
		t.Fatalf("first page of attached policies: %+v, %v", page, err)
	}
	rest, err := c.ListAttachedRolePolicies(ctx, &iam.ListAttachedRolePoliciesInput{RoleName: role, Marker: page.Marker})
	if err != nil || len(rest.AttachedPolicies) != 6 || rest.IsTruncated {
		t.Errorf("the rest: %+v, %v; want 6", rest, err)
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: role}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting a role with attached policies: %v, want DeleteConflict", err)
	}
	if _, err := c.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: role, PolicyArn: aws.String(seededPolicies[2])}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("detaching a policy the role does not have: %v, want NoSuchEntity", err)
	}
	detached := 0
	pages := iam.NewListAttachedRolePoliciesPaginator(c, &iam.ListAttachedRolePoliciesInput{RoleName: role})
	for pages.HasMorePages() {
		p, err := pages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range p.AttachedPolicies {
			if _, err := c.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: role, PolicyArn: a.PolicyArn}); err != nil {
				t.Fatal(err)
			}
			detached++
		}
	}
	if detached != 10 {
		t.Errorf("detached %d policies, want 10", detached)
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: role}); err != nil {
		t.Errorf("deleting the role once detached: %v", err)
	}
}
