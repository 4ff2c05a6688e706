package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// identity is one side's IAM clients, one signing for us-east-1 and one for eu-west-1 (IAM is
// global), and the side's account.
type identity struct {
	iam, west *iam.Client
	account   string
}

// Documents the IAM steps send.
const (
	diffTrust     = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
	diffLambda    = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
	diffS3Read    = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::orders/*"}]}`
	diffNoVersion = `{"Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`
	diffPrincipal = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*"}]}`
	diffResource  = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole","Resource":"*"}]}`
	diffSSM       = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
	diffIssuer    = "https://oidc.diff.example.com/id/ABC"
	diffThumb     = "9e99a48a9960b14926bb7f3b02e22da2b0ab7280"
)

// arnTail returns an IAM ARN without its account, which differs between the sides (the emulator's
// 000000000000, moto's 123456789012): "role/diff/app" for arn:aws:iam::000000000000:role/diff/app.
func arnTail(arn *string) string {
	parts := strings.SplitN(aws.ToString(arn), ":", 6)
	if len(parts) < 6 {
		return aws.ToString(arn)
	}
	return parts[5]
}

// asSent reports whether a URL-encoded policy document IAM answered decodes to the one sent.
func asSent(encoded *string, sent string) string {
	doc, err := url.PathUnescape(aws.ToString(encoded))
	return strconv.FormatBool(err == nil && doc == sent)
}

// roleFields are what the steps compare of a role.
func roleFields(r *iamtypes.Role) map[string]string {
	f := map[string]string{"arn": arnTail(r.Arn), "name": aws.ToString(r.RoleName), "path": aws.ToString(r.Path),
		"idPrefix": aws.ToString(r.RoleId)[:4], "description": aws.ToString(r.Description),
		"session": strconv.Itoa(int(aws.ToInt32(r.MaxSessionDuration))), "tags": strconv.Itoa(len(r.Tags))}
	if r.PermissionsBoundary != nil {
		f["boundary"] = arnTail(r.PermissionsBoundary.PermissionsBoundaryArn)
	}
	return f
}

// policyFields are what the steps compare of a managed policy.
func policyFields(p *iamtypes.Policy) map[string]string {
	return map[string]string{"arn": arnTail(p.Arn), "name": aws.ToString(p.PolicyName), "path": aws.ToString(p.Path),
		"idPrefix": aws.ToString(p.PolicyId)[:4], "default": aws.ToString(p.DefaultVersionId), "attachable": strconv.FormatBool(p.IsAttachable),
		"attachments": strconv.Itoa(int(aws.ToInt32(p.AttachmentCount)))}
}

// identitySteps is the IAM sequence both sides run: a role through its life with tags, a
// boundary, managed and inline policies and an instance profile, and the errors AWS documents
// on the way.
func identitySteps() []step[*identity] {
	ctx := context.Background()
	app, ops := aws.String("diff-app"), aws.String("diff-ops")
	policyARN := func(c *identity, name string) *string {
		return aws.String("arn:aws:iam::" + c.account + ":policy/" + name)
	}
	createRole := func(in *iam.CreateRoleInput) func(c *identity) outcome {
		return func(c *identity) outcome {
			out, err := c.iam.CreateRole(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, roleFields(out.Role))
		}
	}
	getRole := func(client func(c *identity) *iam.Client, name *string) func(c *identity) outcome {
		return func(c *identity) outcome {
			out, err := client(c).GetRole(ctx, &iam.GetRoleInput{RoleName: name})
			if err != nil {
				return observe(err, nil)
			}
			f := roleFields(out.Role)
			f["trustAsSent"] = asSent(out.Role.AssumeRolePolicyDocument, diffTrust)
			return observe(nil, f)
		}
	}
	east := func(c *identity) *iam.Client { return c.iam }
	oidcARN := func(c *identity) *string {
		return aws.String("arn:aws:iam::" + c.account + ":oidc-provider/" + strings.TrimPrefix(diffIssuer, "https://"))
	}
	west := func(c *identity) *iam.Client { return c.west }
	createPolicy := func(name, doc string) func(c *identity) outcome {
		return func(c *identity) outcome {
			out, err := c.iam.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String(name), PolicyDocument: aws.String(doc)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, policyFields(out.Policy))
		}
	}
	getPolicy := func(arn func(c *identity) *string) func(c *identity) outcome {
		return func(c *identity) outcome {
			out, err := c.iam.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: arn(c)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, policyFields(out.Policy))
		}
	}
	read := func(c *identity) *string { return policyARN(c, "diff-read") }
	ssm := func(*identity) *string { return aws.String(diffSSM) }
	version := func(action string, makeDefault bool) func(c *identity) outcome {
		return func(c *identity) outcome {
			doc := strings.Replace(diffS3Read, "s3:GetObject", action, 1)
			out, err := c.iam.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: read(c), PolicyDocument: aws.String(doc), SetAsDefault: makeDefault})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"version": aws.ToString(out.PolicyVersion.VersionId), "default": strconv.FormatBool(out.PolicyVersion.IsDefaultVersion)})
		}
	}
	attach := func(role *string, arn func(c *identity) *string) func(c *identity) outcome {
		return func(c *identity) outcome {
			_, err := c.iam.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: role, PolicyArn: arn(c)})
			return observe(err, nil)
		}
	}
	putInline := func(name, doc string) func(c *identity) outcome {
		return func(c *identity) outcome {
			_, err := c.iam.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: app, PolicyName: aws.String(name), PolicyDocument: aws.String(doc)})
			return observe(err, nil)
		}
	}
	deleteRole := func(role *string) func(c *identity) outcome {
		return func(c *identity) outcome {
			_, err := c.iam.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: role})
			return observe(err, nil)
		}
	}
	profile := aws.String("diff-web")
	addRole := func(role *string) func(c *identity) outcome {
		return func(c *identity) outcome {
			_, err := c.iam.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: profile, RoleName: role})
			return observe(err, nil)
		}
	}
	deleteProfile := func(c *identity) outcome {
		_, err := c.iam.DeleteInstanceProfile(ctx, &iam.DeleteInstanceProfileInput{InstanceProfileName: profile})
		return observe(err, nil)
	}
	roleTags := func(c *identity) outcome {
		out, err := c.iam.ListRoleTags(ctx, &iam.ListRoleTagsInput{RoleName: app})
		if err != nil {
			return observe(err, nil)
		}
		f := map[string]string{}
		for _, t := range out.Tags {
			f["tag:"+aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		return observe(nil, f)
	}
	deletePolicy := func(name string) func(c *identity) outcome {
		return func(c *identity) outcome {
			_, err := c.iam.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: policyARN(c, name)})
			return observe(err, nil)
		}
	}
	tag := func(k, v string) iamtypes.Tag { return iamtypes.Tag{Key: aws.String(k), Value: aws.String(v)} }
	return []step[*identity]{
		{"CreateRole", createRole(&iam.CreateRoleInput{RoleName: app, Path: aws.String("/diff/"), AssumeRolePolicyDocument: aws.String(diffTrust),
			Description: aws.String("differential"), MaxSessionDuration: aws.Int32(7200), Tags: []iamtypes.Tag{tag("team", "diff")}})},
		{"GetRole", getRole(east, app)},
		{"GetRoleFromAnotherRegion", getRole(west, app)},
		{"GetMissingRole", getRole(east, aws.String("diff-missing"))},
		{"CreateRoleAgain", createRole(&iam.CreateRoleInput{RoleName: app, AssumeRolePolicyDocument: aws.String(diffTrust)})},
		{"CreateRoleAgainOtherCase", createRole(&iam.CreateRoleInput{RoleName: aws.String("DIFF-APP"), AssumeRolePolicyDocument: aws.String(diffTrust)})},
		{"CreateRoleBadName", createRole(&iam.CreateRoleInput{RoleName: aws.String("diff app"), AssumeRolePolicyDocument: aws.String(diffTrust)})},
		{"CreateRoleTrustNotJSON", createRole(&iam.CreateRoleInput{RoleName: aws.String("diff-notjson"), AssumeRolePolicyDocument: aws.String("allow ec2")})},
		{"CreateRoleTrustWithResource", createRole(&iam.CreateRoleInput{RoleName: aws.String("diff-resource"), AssumeRolePolicyDocument: aws.String(diffResource)})},
		{"CreateRoleShortSession", createRole(&iam.CreateRoleInput{RoleName: aws.String("diff-short"), AssumeRolePolicyDocument: aws.String(diffTrust),
			MaxSessionDuration: aws.Int32(60)})},
		{"CreateRoleUnknownBoundary", createRole(&iam.CreateRoleInput{RoleName: aws.String("diff-bounded"), AssumeRolePolicyDocument: aws.String(diffTrust),
			PermissionsBoundary: aws.String("arn:aws:iam::aws:policy/NoSuchManagedPolicy")})},
		{"UpdateRole", func(c *identity) outcome {
			_, err := c.iam.UpdateRole(ctx, &iam.UpdateRoleInput{RoleName: app, Description: aws.String("updated"), MaxSessionDuration: aws.Int32(3600)})
			return observe(err, nil)
		}},
		{"UpdateRoleDescription", func(c *identity) outcome {
			out, err := c.iam.UpdateRoleDescription(ctx, &iam.UpdateRoleDescriptionInput{RoleName: app, Description: aws.String("described")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, roleFields(out.Role))
		}},
		{"UpdateAssumeRolePolicy", func(c *identity) outcome {
			_, err := c.iam.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: app, PolicyDocument: aws.String(diffLambda)})
			return observe(err, nil)
		}},
		{"UpdateAssumeRolePolicyWithResource", func(c *identity) outcome {
			_, err := c.iam.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: app, PolicyDocument: aws.String(diffResource)})
			return observe(err, nil)
		}},
		{"TagRole", func(c *identity) outcome {
			_, err := c.iam.TagRole(ctx, &iam.TagRoleInput{RoleName: app, Tags: []iamtypes.Tag{tag("env", "test"), tag("owner", "diff")}})
			return observe(err, nil)
		}},
		{"UntagRole", func(c *identity) outcome {
			_, err := c.iam.UntagRole(ctx, &iam.UntagRoleInput{RoleName: app, TagKeys: []string{"owner"}})
			return observe(err, nil)
		}},
		{"ListRoleTags", roleTags},
		{"PutRolePermissionsBoundary", func(c *identity) outcome {
			_, err := c.iam.PutRolePermissionsBoundary(ctx, &iam.PutRolePermissionsBoundaryInput{RoleName: app, PermissionsBoundary: aws.String(diffSSM)})
			return observe(err, nil)
		}},
		{"GetRoleWithBoundary", getRole(east, app)},
		{"DeleteRolePermissionsBoundary", func(c *identity) outcome {
			_, err := c.iam.DeleteRolePermissionsBoundary(ctx, &iam.DeleteRolePermissionsBoundaryInput{RoleName: app})
			return observe(err, nil)
		}},
		{"CreatePolicy", createPolicy("diff-read", diffS3Read)},
		{"CreatePolicyAgain", createPolicy("diff-read", diffS3Read)},
		{"CreatePolicyWithoutVersion", createPolicy("diff-noversion", diffNoVersion)},
		{"CreatePolicyWithPrincipal", createPolicy("diff-principal", diffPrincipal)},
		{"CreatePolicyNotJSON", createPolicy("diff-notjson", "{")},
		{"GetPolicy", getPolicy(read)},
		{"GetAWSManagedPolicy", getPolicy(ssm)},
		{"GetMissingPolicy", getPolicy(func(c *identity) *string { return policyARN(c, "diff-missing") })},
		{"TagPolicy", func(c *identity) outcome {
			_, err := c.iam.TagPolicy(ctx, &iam.TagPolicyInput{PolicyArn: read(c), Tags: []iamtypes.Tag{tag("team", "diff"), tag("owner", "ops")}})
			return observe(err, nil)
		}},
		{"UntagPolicy", func(c *identity) outcome {
			_, err := c.iam.UntagPolicy(ctx, &iam.UntagPolicyInput{PolicyArn: read(c), TagKeys: []string{"owner"}})
			return observe(err, nil)
		}},
		{"ListPolicyTags", func(c *identity) outcome {
			out, err := c.iam.ListPolicyTags(ctx, &iam.ListPolicyTagsInput{PolicyArn: read(c)})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"tags": strconv.Itoa(len(out.Tags))}
			for _, t := range out.Tags {
				f[aws.ToString(t.Key)] = aws.ToString(t.Value)
			}
			return observe(nil, f)
		}},
		{"TagAWSManagedPolicy", func(c *identity) outcome {
			_, err := c.iam.TagPolicy(ctx, &iam.TagPolicyInput{PolicyArn: ssm(c), Tags: []iamtypes.Tag{tag("team", "diff")}})
			return observe(err, nil)
		}},
		{"CreatePolicyVersion2", version("s3:PutObject", true)},
		{"CreatePolicyVersion3", version("s3:DeleteObject", false)},
		{"CreatePolicyVersion4", version("s3:ListBucket", false)},
		{"CreatePolicyVersion5", version("s3:GetObjectTagging", false)},
		{"CreatePolicyVersion6", version("s3:PutObjectTagging", false)},
		{"ListPolicyVersions", func(c *identity) outcome {
			out, err := c.iam.ListPolicyVersions(ctx, &iam.ListPolicyVersionsInput{PolicyArn: read(c)})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"versions": strconv.Itoa(len(out.Versions))}
			for _, v := range out.Versions {
				if v.IsDefaultVersion {
					f["default"] = aws.ToString(v.VersionId)
				}
			}
			return observe(nil, f)
		}},
		{"GetPolicyVersion", func(c *identity) outcome {
			out, err := c.iam.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: read(c), VersionId: aws.String("v2")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"default": strconv.FormatBool(out.PolicyVersion.IsDefaultVersion),
				"asSent": asSent(out.PolicyVersion.Document, strings.Replace(diffS3Read, "s3:GetObject", "s3:PutObject", 1))})
		}},
		{"GetMissingPolicyVersion", func(c *identity) outcome {
			_, err := c.iam.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: read(c), VersionId: aws.String("v9")})
			return observe(err, nil)
		}},
		{"DeleteDefaultPolicyVersion", func(c *identity) outcome {
			_, err := c.iam.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: read(c), VersionId: aws.String("v2")})
			return observe(err, nil)
		}},
		{"SetDefaultPolicyVersion", func(c *identity) outcome {
			_, err := c.iam.SetDefaultPolicyVersion(ctx, &iam.SetDefaultPolicyVersionInput{PolicyArn: read(c), VersionId: aws.String("v5")})
			return observe(err, nil)
		}},
		{"DeletePolicyVersion", func(c *identity) outcome {
			_, err := c.iam.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: read(c), VersionId: aws.String("v3")})
			return observe(err, nil)
		}},
		{"AttachCustomerPolicy", attach(app, read)},
		{"AttachAWSManagedPolicy", attach(app, ssm)},
		{"AttachAgain", attach(app, ssm)},
		{"AttachUnknownPolicy", attach(app, func(c *identity) *string { return policyARN(c, "diff-missing") })},
		{"AttachMalformedARN", attach(app, func(*identity) *string { return aws.String("AmazonSSMManagedInstanceCore") })},
		{"AttachToMissingRole", attach(aws.String("diff-missing"), ssm)},
		{"ListAttachedRolePolicies", func(c *identity) outcome {
			out, err := c.iam.ListAttachedRolePolicies(ctx, &iam.ListAttachedRolePoliciesInput{RoleName: app})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"attached": strconv.Itoa(len(out.AttachedPolicies))})
		}},
		{"GetAttachedPolicy", getPolicy(read)},
		{"PutRolePolicy", putInline("diff-inline", diffS3Read)},
		{"PutRolePolicyWithoutVersion", putInline("diff-legacy", diffNoVersion)},
		{"PutRolePolicyWithPrincipal", putInline("diff-principal", diffPrincipal)},
		{"GetRolePolicy", func(c *identity) outcome {
			out, err := c.iam.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: app, PolicyName: aws.String("diff-inline")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"role": aws.ToString(out.RoleName), "name": aws.ToString(out.PolicyName), "asSent": asSent(out.PolicyDocument, diffS3Read)})
		}},
		{"GetMissingRolePolicy", func(c *identity) outcome {
			_, err := c.iam.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: app, PolicyName: aws.String("diff-missing")})
			return observe(err, nil)
		}},
		{"ListRolePolicies", func(c *identity) outcome {
			out, err := c.iam.ListRolePolicies(ctx, &iam.ListRolePoliciesInput{RoleName: app})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"names": strings.Join(out.PolicyNames, ",")})
		}},
		{"CreateInstanceProfile", func(c *identity) outcome {
			out, err := c.iam.CreateInstanceProfile(ctx, &iam.CreateInstanceProfileInput{InstanceProfileName: profile, Tags: []iamtypes.Tag{tag("team", "diff")}})
			if err != nil {
				return observe(err, nil)
			}
			p := out.InstanceProfile
			return observe(nil, map[string]string{"arn": arnTail(p.Arn), "idPrefix": aws.ToString(p.InstanceProfileId)[:4], "roles": strconv.Itoa(len(p.Roles))})
		}},
		{"CreateInstanceProfileAgain", func(c *identity) outcome {
			_, err := c.iam.CreateInstanceProfile(ctx, &iam.CreateInstanceProfileInput{InstanceProfileName: profile})
			return observe(err, nil)
		}},
		{"CreateSecondRole", createRole(&iam.CreateRoleInput{RoleName: ops, AssumeRolePolicyDocument: aws.String(diffTrust)})},
		{"AddRoleToInstanceProfile", addRole(app)},
		{"AddSecondRoleToInstanceProfile", addRole(ops)},
		{"GetInstanceProfile", func(c *identity) outcome {
			out, err := c.iam.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: profile})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{"roles": strconv.Itoa(len(out.InstanceProfile.Roles))}
			for _, r := range out.InstanceProfile.Roles {
				f["role"] = aws.ToString(r.RoleName)
			}
			return observe(nil, f)
		}},
		{"ListInstanceProfilesForRole", func(c *identity) outcome {
			out, err := c.iam.ListInstanceProfilesForRole(ctx, &iam.ListInstanceProfilesForRoleInput{RoleName: app})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"profiles": strconv.Itoa(len(out.InstanceProfiles))})
		}},
		{"TagInstanceProfile", func(c *identity) outcome {
			_, err := c.iam.TagInstanceProfile(ctx, &iam.TagInstanceProfileInput{InstanceProfileName: profile, Tags: []iamtypes.Tag{tag("env", "test")}})
			return observe(err, nil)
		}},
		{"UntagInstanceProfile", func(c *identity) outcome {
			_, err := c.iam.UntagInstanceProfile(ctx, &iam.UntagInstanceProfileInput{InstanceProfileName: profile, TagKeys: []string{"team"}})
			return observe(err, nil)
		}},
		{"ListInstanceProfileTags", func(c *identity) outcome {
			out, err := c.iam.ListInstanceProfileTags(ctx, &iam.ListInstanceProfileTagsInput{InstanceProfileName: profile})
			if err != nil {
				return observe(err, nil)
			}
			f := map[string]string{}
			for _, t := range out.Tags {
				f["tag:"+aws.ToString(t.Key)] = aws.ToString(t.Value)
			}
			return observe(nil, f)
		}},
		{"DeleteRoleInInstanceProfile", deleteRole(app)},
		{"DeleteInstanceProfileWithRole", deleteProfile},
		{"RemoveRoleFromInstanceProfile", func(c *identity) outcome {
			_, err := c.iam.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: profile, RoleName: app})
			return observe(err, nil)
		}},
		{"DeleteInstanceProfile", deleteProfile},
		{"DeleteRoleWithAttachedPolicies", deleteRole(app)},
		{"ListRolesPage", func(c *identity) outcome {
			out, err := c.iam.ListRoles(ctx, &iam.ListRolesInput{PathPrefix: aws.String("/"), MaxItems: aws.Int32(1)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"roles": strconv.Itoa(len(out.Roles)), "truncated": strconv.FormatBool(out.IsTruncated),
				"marker": strconv.FormatBool(out.Marker != nil)})
		}},
		{"ListRolesUnderPath", func(c *identity) outcome {
			out, err := c.iam.ListRoles(ctx, &iam.ListRolesInput{PathPrefix: aws.String("/diff/")})
			if err != nil {
				return observe(err, nil)
			}
			var names []string
			for _, r := range out.Roles {
				names = append(names, aws.ToString(r.RoleName))
			}
			return observe(nil, map[string]string{"roles": strings.Join(names, ","), "truncated": strconv.FormatBool(out.IsTruncated)})
		}},
		{"ListLocalPolicies", func(c *identity) outcome {
			out, err := c.iam.ListPolicies(ctx, &iam.ListPoliciesInput{Scope: iamtypes.PolicyScopeTypeLocal})
			if err != nil {
				return observe(err, nil)
			}
			var names []string
			for _, p := range out.Policies {
				names = append(names, fmt.Sprintf("%s:%d", aws.ToString(p.PolicyName), aws.ToInt32(p.AttachmentCount)))
			}
			return observe(nil, map[string]string{"policies": strings.Join(names, ",")})
		}},
		{"ListAttachedAWSPolicies", func(c *identity) outcome {
			out, err := c.iam.ListPolicies(ctx, &iam.ListPoliciesInput{Scope: iamtypes.PolicyScopeTypeAws, OnlyAttached: true})
			if err != nil {
				return observe(err, nil)
			}
			var names []string
			for _, p := range out.Policies {
				names = append(names, aws.ToString(p.PolicyName))
			}
			return observe(nil, map[string]string{"policies": strings.Join(names, ",")})
		}},
		{"DetachCustomerPolicy", func(c *identity) outcome {
			_, err := c.iam.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: app, PolicyArn: read(c)})
			return observe(err, nil)
		}},
		{"DetachAgain", func(c *identity) outcome {
			_, err := c.iam.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: app, PolicyArn: read(c)})
			return observe(err, nil)
		}},
		{"DetachAWSManagedPolicy", func(c *identity) outcome {
			_, err := c.iam.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: app, PolicyArn: aws.String(diffSSM)})
			return observe(err, nil)
		}},
		{"DeleteRoleWithInlinePolicies", deleteRole(app)},
		{"DeleteRolePolicies", func(c *identity) outcome {
			out, err := c.iam.ListRolePolicies(ctx, &iam.ListRolePoliciesInput{RoleName: app})
			if err != nil {
				return observe(err, nil)
			}
			for _, name := range out.PolicyNames {
				if _, err := c.iam.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: app, PolicyName: aws.String(name)}); err != nil {
					return observe(err, nil)
				}
			}
			return observe(nil, nil)
		}},
		{"DeleteRole", deleteRole(app)},
		{"DeleteRoleAgain", deleteRole(app)},
		{"CreateOIDCProvider", func(c *identity) outcome {
			out, err := c.iam.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String(diffIssuer),
				ClientIDList: []string{"sts.amazonaws.com"}, ThumbprintList: []string{diffThumb}, Tags: []iamtypes.Tag{tag("team", "diff")}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"arn": arnTail(out.OpenIDConnectProviderArn)})
		}},
		{"CreateOIDCProviderAgain", func(c *identity) outcome {
			_, err := c.iam.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String(diffIssuer)})
			return observe(err, nil)
		}},
		{"CreateOIDCProviderHTTP", func(c *identity) outcome {
			_, err := c.iam.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String("http://issuer.diff.example.com")})
			return observe(err, nil)
		}},
		{"CreateOIDCProviderLongURL", func(c *identity) outcome {
			_, err := c.iam.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String("https://" + strings.Repeat("a", 250))})
			return observe(err, nil)
		}},
		{"CreateOIDCProviderSixThumbprints", func(c *identity) outcome {
			_, err := c.iam.CreateOpenIDConnectProvider(ctx, &iam.CreateOpenIDConnectProviderInput{Url: aws.String("https://six.diff.example.com"),
				ThumbprintList: []string{diffThumb, diffThumb, diffThumb, diffThumb, diffThumb, diffThumb}})
			return observe(err, nil)
		}},
		{"AddOIDCClientID", func(c *identity) outcome {
			_, err := c.iam.AddClientIDToOpenIDConnectProvider(ctx, &iam.AddClientIDToOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c), ClientID: aws.String("diff-app")})
			return observe(err, nil)
		}},
		{"RemoveOIDCClientID", func(c *identity) outcome {
			_, err := c.iam.RemoveClientIDFromOpenIDConnectProvider(ctx, &iam.RemoveClientIDFromOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c), ClientID: aws.String("sts.amazonaws.com")})
			return observe(err, nil)
		}},
		{"UpdateOIDCThumbprint", func(c *identity) outcome {
			_, err := c.iam.UpdateOpenIDConnectProviderThumbprint(ctx, &iam.UpdateOpenIDConnectProviderThumbprintInput{OpenIDConnectProviderArn: oidcARN(c),
				ThumbprintList: []string{strings.Repeat("ab", 20)}})
			return observe(err, nil)
		}},
		{"TagOIDCProvider", func(c *identity) outcome {
			_, err := c.iam.TagOpenIDConnectProvider(ctx, &iam.TagOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c), Tags: []iamtypes.Tag{tag("env", "diff")}})
			return observe(err, nil)
		}},
		{"UntagOIDCProvider", func(c *identity) outcome {
			_, err := c.iam.UntagOpenIDConnectProvider(ctx, &iam.UntagOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c), TagKeys: []string{"team"}})
			return observe(err, nil)
		}},
		{"GetOIDCProvider", func(c *identity) outcome {
			out, err := c.iam.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"url": aws.ToString(out.Url), "clients": strings.Join(out.ClientIDList, ","),
				"thumbprints": strings.Join(out.ThumbprintList, ","), "tags": strconv.Itoa(len(out.Tags))})
		}},
		{"ListOIDCProviderTags", func(c *identity) outcome {
			out, err := c.iam.ListOpenIDConnectProviderTags(ctx, &iam.ListOpenIDConnectProviderTagsInput{OpenIDConnectProviderArn: oidcARN(c)})
			if err != nil {
				return observe(err, nil)
			}
			var keys []string
			for _, t := range out.Tags {
				keys = append(keys, aws.ToString(t.Key))
			}
			return observe(nil, map[string]string{"keys": strings.Join(keys, ",")})
		}},
		{"ListOIDCProviders", func(c *identity) outcome {
			out, err := c.iam.ListOpenIDConnectProviders(ctx, &iam.ListOpenIDConnectProvidersInput{})
			if err != nil {
				return observe(err, nil)
			}
			var arns []string
			for _, p := range out.OpenIDConnectProviderList {
				arns = append(arns, arnTail(p.Arn))
			}
			return observe(nil, map[string]string{"arns": strings.Join(arns, ",")})
		}},
		{"DeleteOIDCProvider", func(c *identity) outcome {
			_, err := c.iam.DeleteOpenIDConnectProvider(ctx, &iam.DeleteOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c)})
			return observe(err, nil)
		}},
		{"GetDeletedOIDCProvider", func(c *identity) outcome {
			_, err := c.iam.GetOpenIDConnectProvider(ctx, &iam.GetOpenIDConnectProviderInput{OpenIDConnectProviderArn: oidcARN(c)})
			return observe(err, nil)
		}},
		// Last, as moto deletes what AWS refuses to: diff-read still has versions, and
		// diff-held is attached to diff-ops.
		{"CreateHeldPolicy", createPolicy("diff-held", diffS3Read)},
		{"AttachHeldPolicy", attach(ops, func(c *identity) *string { return policyARN(c, "diff-held") })},
		{"DeleteAttachedPolicy", deletePolicy("diff-held")},
		{"DeletePolicyWithVersions", deletePolicy("diff-read")},
	}
}

// TestIdentityAgainstMoto compares IAM with moto's IAM.
func TestIdentityAgainstMoto(t *testing.T) {
	// moto loads AWS managed policies, which exist in every AWS account, only when asked to.
	peerURL := motoPeer(t, "MOTO_IAM_LOAD_MANAGED_POLICIES=true")
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url, account string) *identity {
		west := sdkConfig(t, url)
		west.Region = "eu-west-1"
		return &identity{iam: iam.NewFromConfig(sdkConfig(t, url)), west: iam.NewFromConfig(west), account: account}
	}
	// moto's default account; the emulator's is emulator.DefaultAccount.
	const motoAccount = "123456789012"
	// AWS's unique IDs begin with a prefix that says what they identify (IAM User Guide, IAM
	// identifiers: AROA roles, ANPA managed policies, AIPA instance profiles); moto's policy and
	// instance profile IDs are random.
	const randomIDs = "moto's policy and instance profile IDs are random; AWS's begin with ANPA and AIPA (IAM identifiers, unique ID prefixes)"
	// moto checks no trust policy in CreateRole (it does in UpdateAssumeRolePolicy); AWS refuses a
	// malformed one with MalformedPolicyDocument (CreateRole, AssumeRolePolicyDocument).
	const trustUnchecked = "moto does not check CreateRole's trust policy; AWS answers MalformedPolicyDocument"
	compare(t, side(emu.URL, emulator.DefaultAccount), side(peerURL, motoAccount), "moto "+motoVersion, identitySteps(), map[string]string{
		"CreateRoleAgainOtherCase":    "moto distinguishes role names by case; AWS does not (IAM identifiers: names are unique without regard to case) and answers EntityAlreadyExists",
		"CreateRoleBadName":           `moto accepts any role name; AWS answers ValidationError for one outside [\w+=,.@-]{1,64} (CreateRole, RoleName)`,
		"CreateRoleTrustNotJSON":      trustUnchecked,
		"CreateRoleTrustWithResource": trustUnchecked + " (a trust policy has no Resource)",
		"CreateRoleShortSession":      "moto accepts any MaxSessionDuration; AWS answers ValidationError outside 3600 to 43200 seconds (CreateRole)",
		"CreateRoleUnknownBoundary":   "moto does not look the permissions boundary up; AWS answers NoSuchEntity for a policy that does not exist",
		"CreatePolicy":                randomIDs,
		"GetPolicy":                   randomIDs,
		"GetAWSManagedPolicy":         randomIDs,
		"GetAttachedPolicy":           randomIDs,
		"CreateHeldPolicy":            randomIDs,
		"CreateInstanceProfile":       randomIDs,
		"CreatePolicyWithPrincipal":   "moto accepts a Principal in an identity-based policy; AWS answers MalformedPolicyDocument (Policy document should not specify a principal)",
		"PutRolePolicyWithPrincipal":  "moto does not check PutRolePolicy's documents for a Principal; AWS answers MalformedPolicyDocument",
		"PutRolePolicyWithoutVersion": "moto requires Version 2012-10-17 in inline policies too; AWS requires it of managed policies only and takes 2008-10-17 " +
			"when an inline policy leaves Version out (IAM JSON policy elements: Version)",
		"ListRolePolicies":         "follows from PutRolePolicyWithoutVersion and PutRolePolicyWithPrincipal: each side kept a different second policy",
		"ListLocalPolicies":        "follows from CreatePolicyWithPrincipal: moto created diff-principal",
		"AttachMalformedARN":       "moto answers NoSuchEntity; AWS answers InvalidInput for a policy ARN that is not an ARN (ARN ... is not valid)",
		"ListInstanceProfileTags":  "moto 5.2.1 fails ListInstanceProfileTags with HTTP 500 (malformed XML); AWS lists the tags",
		"TagAWSManagedPolicy":      "moto tags an AWS managed policy; AWS lets an account tag only its customer managed policies (TagPolicy), and the emulator answers AccessDenied as for every change of an AWS managed policy",
		"DeleteAttachedPolicy":     "moto deletes an attached policy; AWS answers DeleteConflict until it is detached from every entity (DeletePolicy)",
		"DeletePolicyWithVersions": "moto deletes a policy with non-default versions; AWS answers DeleteConflict until they are deleted (DeletePolicy)",
		"CreateOIDCProviderHTTP":   "moto accepts an http:// URL; AWS requires one that begins with https:// (CreateOpenIDConnectProvider, Url) and the emulator answers InvalidInput",
		"AddOIDCClientID":          "moto 5.2.1 fails AddClientIDToOpenIDConnectProvider with HTTP 500 (malformed XML); AWS adds the client ID",
		"RemoveOIDCClientID":       "moto 5.2.1 fails RemoveClientIDFromOpenIDConnectProvider with HTTP 500 (malformed XML); AWS removes the client ID",
		"GetOIDCProvider":          "follows from AddOIDCClientID and RemoveOIDCClientID: moto kept the client IDs as created",
		"ListOIDCProviders":        "follows from CreateOIDCProviderHTTP: moto created the http:// provider",
	})
}
