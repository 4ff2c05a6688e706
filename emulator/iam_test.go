package emulator_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// Policy documents the IAM tests use.
const (
	// ec2Trust lets EC2 assume a role.
	ec2Trust = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
	// lambdaTrust lets Lambda assume a role; it is indented, as operators' manifests write it.
	lambdaTrust = "{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [\n    {\n      \"Effect\": \"Allow\",\n" +
		"      \"Principal\": {\"Service\": \"lambda.amazonaws.com\"},\n      \"Action\": \"sts:AssumeRole\"\n    }\n  ]\n}"
	// s3Read allows reading one bucket's objects.
	s3Read = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject","s3:ListBucket"],"Resource":["arn:aws:s3:::orders","arn:aws:s3:::orders/*"]}]}`
)

// Identifier patterns of AWS's unique IDs.
var (
	roleIDPattern    = regexp.MustCompile(`^AROA[A-Z2-7]{17}$`)
	policyIDPattern  = regexp.MustCompile(`^ANPA[A-Z2-7]{17}$`)
	profileIDPattern = regexp.MustCompile(`^AIPA[A-Z2-7]{17}$`)
)

// iamClient starts an emulator and returns it with an IAM client of the default account.
func iamClient(t *testing.T, opts emulator.Options) (*emulator.Server, *iam.Client) {
	t.Helper()
	e, url := start(t, opts)
	return e, iam.NewFromConfig(sdkConfig(t, url, "AKID", 1))
}

// newRole creates a role named name that EC2 may assume, or fails the test.
func newRole(t *testing.T, c *iam.Client, name string) *iamtypes.Role {
	t.Helper()
	out, err := c.CreateRole(context.Background(), &iam.CreateRoleInput{RoleName: aws.String(name), AssumeRolePolicyDocument: aws.String(ec2Trust)})
	if err != nil {
		t.Fatalf("CreateRole %s: %v", name, err)
	}
	return out.Role
}

// decodeDocument returns a policy document as IAM returns it, URL-encoded, decoded; it fails the
// test when the document is not URL-encoded.
func decodeDocument(t *testing.T, doc *string) string {
	t.Helper()
	s := aws.ToString(doc)
	if strings.ContainsAny(s, `{}" `) {
		t.Errorf("document %q is not URL-encoded", s)
	}
	out, err := url.PathUnescape(s)
	if err != nil {
		t.Fatalf("document %q: %v", s, err)
	}
	return out
}

// TestIAMCreateAndGetRole checks what CreateRole and GetRole answer: AWS's ARN and role ID forms,
// the trust policy URL-encoded, and every field given.
func TestIAMCreateAndGetRole(t *testing.T) {
	e, c := iamClient(t, emulator.Options{})
	e.Clock.Freeze()
	ctx := context.Background()
	out, err := c.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("web-server"), Path: aws.String("/apps/web/"),
		AssumeRolePolicyDocument: aws.String(lambdaTrust), Description: aws.String("Role of the web tier"), MaxSessionDuration: aws.Int32(7200),
		PermissionsBoundary: aws.String("arn:aws:iam::aws:policy/PowerUserAccess"),
		Tags:                []iamtypes.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Role
	if got, want := aws.ToString(r.Arn), "arn:aws:iam::000000000000:role/apps/web/web-server"; got != want {
		t.Errorf("Arn %s, want %s", got, want)
	}
	if !roleIDPattern.MatchString(aws.ToString(r.RoleId)) {
		t.Errorf("RoleId %s is not AROA and 17 characters", aws.ToString(r.RoleId))
	}
	if d := aws.ToTime(r.CreateDate).Sub(e.Clock.Now()); d > time.Second || d < -time.Second {
		t.Errorf("CreateDate %v, want the clock's %v", r.CreateDate, e.Clock.Now())
	}
	got, err := c.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("WEB-SERVER")})
	if err != nil {
		t.Fatalf("GetRole finds a role without regard to case: %v", err)
	}
	g := got.Role
	if diff := cmp.Diff(lambdaTrust, decodeDocument(t, g.AssumeRolePolicyDocument)); diff != "" {
		t.Errorf("the trust policy comes back as sent, URL-encoded\n-want +got:\n%s", diff)
	}
	want := map[string]string{"name": "web-server", "path": "/apps/web/", "description": "Role of the web tier", "session": "7200",
		"boundary": "arn:aws:iam::aws:policy/PowerUserAccess", "boundaryType": "PermissionsBoundaryPolicy", "tags": "team=web",
		"id": aws.ToString(r.RoleId), "lastUsed": "true"}
	have := map[string]string{"name": aws.ToString(g.RoleName), "path": aws.ToString(g.Path), "description": aws.ToString(g.Description),
		"session": fmt.Sprint(aws.ToInt32(g.MaxSessionDuration)), "id": aws.ToString(g.RoleId), "lastUsed": fmt.Sprint(g.RoleLastUsed != nil)}
	if g.PermissionsBoundary != nil {
		have["boundary"], have["boundaryType"] = aws.ToString(g.PermissionsBoundary.PermissionsBoundaryArn), string(g.PermissionsBoundary.PermissionsBoundaryType)
	}
	for _, tag := range g.Tags {
		have["tags"] += aws.ToString(tag.Key) + "=" + aws.ToString(tag.Value)
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("GetRole\n-want +got:\n%s", diff)
	}
	plain := newRole(t, c, "plain")
	if aws.ToString(plain.Path) != "/" || aws.ToInt32(plain.MaxSessionDuration) != 3600 || plain.Description != nil || plain.Tags != nil {
		t.Errorf("a role created with defaults: path %q, session %d, description %v, tags %v; want /, 3600 and none",
			aws.ToString(plain.Path), aws.ToInt32(plain.MaxSessionDuration), plain.Description, plain.Tags)
	}
}

// TestIAMCreateRoleErrors checks AWS's answers to bad CreateRole requests.
func TestIAMCreateRoleErrors(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	newRole(t, c, "taken")
	manyTags := make([]iamtypes.Tag, 51)
	for i := range manyTags {
		manyTags[i] = iamtypes.Tag{Key: aws.String(fmt.Sprintf("k%d", i)), Value: aws.String("v")}
	}
	statement := `{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}`
	long := `{"Version":"2012-10-17","Statement":[` + strings.TrimSuffix(strings.Repeat(statement+",", 30), ",") + `]}`
	cases := map[string]struct {
		reason string
		change func(in *iam.CreateRoleInput)
		want   string
	}{
		"TakenAnyCase": {"Role names are unique without regard to case.", func(in *iam.CreateRoleInput) { in.RoleName = aws.String("TAKEN") }, "EntityAlreadyExists"},
		"BadName":      {"Names are letters, digits and +=,.@_-.", func(in *iam.CreateRoleInput) { in.RoleName = aws.String("web server") }, "ValidationError"},
		"LongName":     {"Names have at most 64 characters.", func(in *iam.CreateRoleInput) { in.RoleName = aws.String(strings.Repeat("r", 65)) }, "ValidationError"},
		"LongestName":  {"A 64-character name is fine.", func(in *iam.CreateRoleInput) { in.RoleName = aws.String(strings.Repeat("r", 64)) }, ""},
		"BadPath":      {"A path begins and ends with a slash.", func(in *iam.CreateRoleInput) { in.Path = aws.String("apps") }, "ValidationError"},
		"NotJSON":      {"The trust policy must be JSON.", func(in *iam.CreateRoleInput) { in.AssumeRolePolicyDocument = aws.String("allow ec2") }, "MalformedPolicyDocument"},
		"BadVersion": {"Version is 2012-10-17 or 2008-10-17.", func(in *iam.CreateRoleInput) {
			in.AssumeRolePolicyDocument = aws.String(strings.Replace(ec2Trust, "2012-10-17", "2020-01-01", 1))
		}, "MalformedPolicyDocument"},
		"NoVersion": {"A trust policy may leave Version out.", func(in *iam.CreateRoleInput) {
			in.AssumeRolePolicyDocument = aws.String(`{"Statement":[` + statement + `]}`)
		}, ""},
		"NoStatement": {"A policy has statements.", func(in *iam.CreateRoleInput) { in.AssumeRolePolicyDocument = aws.String(`{"Version":"2012-10-17"}`) }, "MalformedPolicyDocument"},
		"NoPrincipal": {"A trust policy names principals.", func(in *iam.CreateRoleInput) {
			in.AssumeRolePolicyDocument = aws.String(strings.Replace(ec2Trust, `"Principal":{"Service":"ec2.amazonaws.com"},`, "", 1))
		}, "MalformedPolicyDocument"},
		"Resource": {"A trust policy has no resources.", func(in *iam.CreateRoleInput) {
			in.AssumeRolePolicyDocument = aws.String(strings.Replace(ec2Trust, `"Action"`, `"Resource":"*","Action"`, 1))
		}, "MalformedPolicyDocument"},
		"LowerCaseEffect": {"Effect is Allow or Deny, case included.", func(in *iam.CreateRoleInput) {
			in.AssumeRolePolicyDocument = aws.String(strings.Replace(ec2Trust, "Allow", "allow", 1))
		}, "MalformedPolicyDocument"},
		"ActionNoVendor": {"Actions name their service.", func(in *iam.CreateRoleInput) {
			in.AssumeRolePolicyDocument = aws.String(strings.Replace(ec2Trust, "sts:AssumeRole", "AssumeRole", 1))
		}, "MalformedPolicyDocument"},
		"TrustTooLarge":   {"A trust policy has at most 2,048 characters.", func(in *iam.CreateRoleInput) { in.AssumeRolePolicyDocument = aws.String(long) }, "LimitExceeded"},
		"ShortSession":    {"Sessions last at least an hour.", func(in *iam.CreateRoleInput) { in.MaxSessionDuration = aws.Int32(3599) }, "ValidationError"},
		"LongSession":     {"Sessions last at most 12 hours.", func(in *iam.CreateRoleInput) { in.MaxSessionDuration = aws.Int32(43201) }, "ValidationError"},
		"LongDescription": {"Descriptions have at most 1,000 characters.", func(in *iam.CreateRoleInput) { in.Description = aws.String(strings.Repeat("d", 1001)) }, "ValidationError"},
		"UnknownBoundary": {"The boundary must be a managed policy.", func(in *iam.CreateRoleInput) {
			in.PermissionsBoundary = aws.String("arn:aws:iam::000000000000:policy/none")
		}, "NoSuchEntity"},
		"MalformedBoundary": {"The boundary must be a policy ARN.", func(in *iam.CreateRoleInput) { in.PermissionsBoundary = aws.String("PowerUserAccess") }, "InvalidInput"},
		"TooManyTags":       {"At most 50 tags.", func(in *iam.CreateRoleInput) { in.Tags = manyTags }, "ValidationError"},
		"RepeatedTagKey": {"Tag keys are case-insensitive, so Team and team repeat a key.", func(in *iam.CreateRoleInput) {
			in.Tags = []iamtypes.Tag{{Key: aws.String("team"), Value: aws.String("a")}, {Key: aws.String("Team"), Value: aws.String("b")}}
		}, "InvalidInput"},
		"BadTagKey": {"Tag keys are letters, digits, spaces and _.:/=+-@.", func(in *iam.CreateRoleInput) {
			in.Tags = []iamtypes.Tag{{Key: aws.String("team#1"), Value: aws.String("a")}}
		}, "ValidationError"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := &iam.CreateRoleInput{RoleName: aws.String("r-" + name), AssumeRolePolicyDocument: aws.String(ec2Trust)}
			tc.change(in)
			_, err := c.CreateRole(ctx, in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s (%v)\n-want +got:\n%s", tc.reason, err, diff)
			}
		})
	}
}

// TestIAMUpdateRole checks UpdateRole, UpdateRoleDescription, UpdateAssumeRolePolicy and the
// permissions boundary operations, and NoSuchEntity for a role that does not exist.
func TestIAMUpdateRole(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	newRole(t, c, "worker")
	if _, err := c.UpdateRole(ctx, &iam.UpdateRoleInput{RoleName: aws.String("worker"), Description: aws.String("batch"), MaxSessionDuration: aws.Int32(43200)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateRole(ctx, &iam.UpdateRoleInput{RoleName: aws.String("worker"), MaxSessionDuration: aws.Int32(60)}); errorCode(err) != "ValidationError" {
		t.Errorf("UpdateRole with a 60s session: %v, want ValidationError", err)
	}
	described, err := c.UpdateRoleDescription(ctx, &iam.UpdateRoleDescriptionInput{RoleName: aws.String("worker"), Description: aws.String("batch jobs")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(described.Role.Description) != "batch jobs" || aws.ToInt32(described.Role.MaxSessionDuration) != 43200 {
		t.Errorf("UpdateRoleDescription answered %+v; want the new description and the 12-hour session", described.Role)
	}
	if _, err := c.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: aws.String("worker"), PolicyDocument: aws.String(lambdaTrust)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: aws.String("worker"), PolicyDocument: aws.String(s3Read)}); errorCode(err) != "MalformedPolicyDocument" {
		t.Errorf("a permissions policy as trust policy: %v, want MalformedPolicyDocument", err)
	}
	boundary := "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"
	if _, err := c.PutRolePermissionsBoundary(ctx, &iam.PutRolePermissionsBoundaryInput{RoleName: aws.String("worker"), PermissionsBoundary: aws.String(boundary)}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("worker")})
	if err != nil {
		t.Fatal(err)
	}
	if got.Role.PermissionsBoundary == nil || aws.ToString(got.Role.PermissionsBoundary.PermissionsBoundaryArn) != boundary ||
		!strings.Contains(decodeDocument(t, got.Role.AssumeRolePolicyDocument), "lambda.amazonaws.com") || aws.ToString(got.Role.Description) != "batch jobs" {
		t.Errorf("after the updates GetRole answered %+v", got.Role)
	}
	policy, err := c.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: aws.String(boundary)})
	if err != nil || aws.ToInt32(policy.Policy.PermissionsBoundaryUsageCount) != 1 || aws.ToInt32(policy.Policy.AttachmentCount) != 0 {
		t.Errorf("the boundary policy: %+v, %v; want used once as a boundary, attached nowhere", policy, err)
	}
	if _, err := c.PutRolePermissionsBoundary(ctx, &iam.PutRolePermissionsBoundaryInput{RoleName: aws.String("worker"),
		PermissionsBoundary: aws.String("arn:aws:iam::aws:policy/NoSuchPolicy")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("an unknown boundary: %v, want NoSuchEntity", err)
	}
	if _, err := c.DeleteRolePermissionsBoundary(ctx, &iam.DeleteRolePermissionsBoundaryInput{RoleName: aws.String("worker")}); err != nil {
		t.Fatal(err)
	}
	got, err = c.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("worker")})
	if err != nil || got.Role.PermissionsBoundary != nil {
		t.Errorf("after DeleteRolePermissionsBoundary: %+v, %v", got, err)
	}
	missing := aws.String("missing")
	for name, call := range map[string]func() error{
		"GetRole":    func() error { _, err := c.GetRole(ctx, &iam.GetRoleInput{RoleName: missing}); return err },
		"UpdateRole": func() error { _, err := c.UpdateRole(ctx, &iam.UpdateRoleInput{RoleName: missing}); return err },
		"UpdateAssumeRolePolicy": func() error {
			_, err := c.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: missing, PolicyDocument: aws.String(ec2Trust)})
			return err
		},
		"DeleteRole": func() error { _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: missing}); return err },
		"TagRole": func() error {
			_, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: missing, Tags: []iamtypes.Tag{{Key: aws.String("a"), Value: aws.String("b")}}})
			return err
		},
		"ListRolePolicies": func() error {
			_, err := c.ListRolePolicies(ctx, &iam.ListRolePoliciesInput{RoleName: missing})
			return err
		},
	} {
		if err := call(); errorCode(err) != "NoSuchEntity" {
			t.Errorf("%s of a missing role: %v, want NoSuchEntity", name, err)
		}
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: aws.String("worker")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("worker")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("a deleted role: %v, want NoSuchEntity", err)
	}
}

// TestIAMIsGlobal checks that IAM's state belongs to the account, not the region: a role made
// through us-east-1 is seen through eu-west-1, and not by another account.
func TestIAMIsGlobal(t *testing.T) {
	_, url := start(t, emulator.Options{Accounts: map[string]string{"AKIDOTHER": "111111111111"}})
	ctx := context.Background()
	east := iam.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	westCfg := sdkConfig(t, url, "AKID", 1)
	westCfg.Region = "eu-west-1"
	west := iam.NewFromConfig(westCfg)
	other := iam.NewFromConfig(sdkConfig(t, url, "AKIDOTHER", 1))
	newRole(t, east, "everywhere")
	got, err := west.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("everywhere")})
	if err != nil {
		t.Fatalf("a role made through us-east-1, read through eu-west-1: %v", err)
	}
	if arn := aws.ToString(got.Role.Arn); arn != "arn:aws:iam::000000000000:role/everywhere" {
		t.Errorf("Arn %s has a region or the wrong account", arn)
	}
	if _, err := other.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("everywhere")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("another account reads the role: %v, want NoSuchEntity", err)
	}
	if role := newRole(t, other, "everywhere"); aws.ToString(role.Arn) != "arn:aws:iam::111111111111:role/everywhere" {
		t.Errorf("another account's role of the same name: %s", aws.ToString(role.Arn))
	}
	if _, err := west.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("everywhere"), AssumeRolePolicyDocument: aws.String(ec2Trust)}); errorCode(err) != "EntityAlreadyExists" {
		t.Errorf("creating the role again through eu-west-1: %v, want EntityAlreadyExists", err)
	}
}

// TestIAMListRoles checks ListRoles' paging (Marker, MaxItems, IsTruncated), its PathPrefix
// filter, and that listed roles carry no tags, as AWS lists them.
func TestIAMListRoles(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	for i := range 5 {
		path := "/apps/"
		if i%2 == 1 {
			path = "/ops/"
		}
		if _, err := c.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String(fmt.Sprintf("role-%d", i)), Path: aws.String(path),
			AssumeRolePolicyDocument: aws.String(ec2Trust), Tags: []iamtypes.Tag{{Key: aws.String("n"), Value: aws.String(fmt.Sprint(i))}}}); err != nil {
			t.Fatal(err)
		}
	}
	first, err := c.ListRoles(ctx, &iam.ListRolesInput{MaxItems: aws.Int32(2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Roles) != 2 || !first.IsTruncated || first.Marker == nil {
		t.Fatalf("first page: %d roles, truncated %v, marker %v; want 2, true and a marker", len(first.Roles), first.IsTruncated, first.Marker)
	}
	if first.Roles[0].Tags != nil || first.Roles[0].RoleLastUsed != nil || decodeDocument(t, first.Roles[0].AssumeRolePolicyDocument) != ec2Trust {
		t.Errorf("a listed role: %+v; want its trust policy and no tags or RoleLastUsed", first.Roles[0])
	}
	var names []string
	pages := iam.NewListRolesPaginator(c, &iam.ListRolesInput{MaxItems: aws.Int32(2)})
	for pages.HasMorePages() {
		p, err := pages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Roles {
			names = append(names, aws.ToString(r.RoleName))
		}
	}
	if diff := cmp.Diff([]string{"role-0", "role-1", "role-2", "role-3", "role-4"}, names); diff != "" {
		t.Errorf("every page, in name order\n-want +got:\n%s", diff)
	}
	ops, err := c.ListRoles(ctx, &iam.ListRolesInput{PathPrefix: aws.String("/ops/")})
	if err != nil || len(ops.Roles) != 2 || ops.IsTruncated || ops.Marker != nil {
		t.Errorf("PathPrefix /ops/: %+v, %v; want the 2 roles under it on one page", ops, err)
	}
	if _, err := c.ListRoles(ctx, &iam.ListRolesInput{MaxItems: aws.Int32(1001)}); errorCode(err) != "ValidationError" {
		t.Errorf("MaxItems 1001: %v, want ValidationError", err)
	}
	if _, err := c.ListRoles(ctx, &iam.ListRolesInput{Marker: aws.String("bogus")}); errorCode(err) != "ValidationError" {
		t.Errorf("a marker no answer gave: %v, want ValidationError", err)
	}
}

// TestIAMRoleTags checks TagRole, UntagRole and ListRoleTags: keys without regard to case, the
// limit of 50 tags, and paging.
func TestIAMRoleTags(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	newRole(t, c, "tagged")
	role := aws.String("tagged")
	tag := func(k, v string) iamtypes.Tag { return iamtypes.Tag{Key: aws.String(k), Value: aws.String(v)} }
	list := func() map[string]string {
		t.Helper()
		out, err := c.ListRoleTags(ctx, &iam.ListRoleTagsInput{RoleName: role})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, tg := range out.Tags {
			m[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
		}
		return m
	}
	if _, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: role, Tags: []iamtypes.Tag{tag("team", "web"), tag("env", "prod")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: role, Tags: []iamtypes.Tag{tag("Team", "api")}}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"Team": "api", "env": "prod"}, list()); diff != "" {
		t.Errorf("a key differing only in case replaces the tag\n-want +got:\n%s", diff)
	}
	if _, err := c.UntagRole(ctx, &iam.UntagRoleInput{RoleName: role, TagKeys: []string{"ENV", "absent"}}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"Team": "api"}, list()); diff != "" {
		t.Errorf("UntagRole matches keys without regard to case\n-want +got:\n%s", diff)
	}
	var fill []iamtypes.Tag
	for i := range 49 {
		fill = append(fill, tag(fmt.Sprintf("k%02d", i), "v"))
	}
	if _, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: role, Tags: fill}); err != nil {
		t.Fatalf("reaching 50 tags: %v", err)
	}
	if _, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: role, Tags: []iamtypes.Tag{tag("one-more", "v")}}); errorCode(err) != "LimitExceeded" {
		t.Errorf("a 51st tag: %v, want LimitExceeded", err)
	}
	if _, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: role, Tags: []iamtypes.Tag{tag("TEAM", "ops")}}); err != nil {
		t.Errorf("replacing a value at the limit: %v", err)
	}
	page, err := c.ListRoleTags(ctx, &iam.ListRoleTagsInput{RoleName: role, MaxItems: aws.Int32(20)})
	if err != nil || len(page.Tags) != 20 || !page.IsTruncated {
		t.Fatalf("first page of tags: %v, %v; want 20 of 50, truncated", page, err)
	}
	rest, err := c.ListRoleTags(ctx, &iam.ListRoleTagsInput{RoleName: role, Marker: page.Marker, MaxItems: aws.Int32(100)})
	if err != nil || len(rest.Tags) != 30 || rest.IsTruncated {
		t.Errorf("the rest: %v, %v; want 30, not truncated", rest, err)
	}
	if _, err := c.TagRole(ctx, &iam.TagRoleInput{RoleName: role, Tags: []iamtypes.Tag{tag("k01", strings.Repeat("v", 257))}}); errorCode(err) != "ValidationError" {
		t.Errorf("a 257-character value: %v, want ValidationError", err)
	}
}

// TestIAMReadAfterCreateDelay checks the eventual-consistency fault on IAM: a new role is unknown
// to every call that names it until the delay passes, yet its name is taken.
func TestIAMReadAfterCreateDelay(t *testing.T) {
	e, c := iamClient(t, emulator.Options{Faults: map[string]emulator.Fault{
		"IAM.CreateRole": {ReadAfterCreateDelay: emulator.Duration(5 * time.Second)},
	}})
	e.Clock.Freeze()
	ctx := context.Background()
	newRole(t, c, "lagging")
	if _, err := c.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("lagging")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("GetRole right after creation: %v, want NoSuchEntity", err)
	}
	if _, err := c.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("lagging"),
		PolicyArn: aws.String("arn:aws:iam::aws:policy/ReadOnlyAccess")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("AttachRolePolicy right after creation: %v, want NoSuchEntity", err)
	}
	if _, err := c.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("lagging"), AssumeRolePolicyDocument: aws.String(ec2Trust)}); errorCode(err) != "EntityAlreadyExists" {
		t.Errorf("creating it again: %v, want EntityAlreadyExists", err)
	}
	e.Clock.Advance(6 * time.Second)
	if _, err := c.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String("lagging")}); err != nil {
		t.Errorf("GetRole after the delay: %v", err)
	}
}
