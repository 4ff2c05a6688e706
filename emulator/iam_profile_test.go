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

// TestIAMInstanceProfiles checks instance profiles: one role at most, the conflicts that keep a
// role and a profile from being deleted while joined, listing a role's profiles, and tags.
func TestIAMInstanceProfiles(t *testing.T) {
	_, c := iamClient(t, emulator.Options{})
	ctx := context.Background()
	out, err := c.CreateInstanceProfile(ctx, &iam.CreateInstanceProfileInput{InstanceProfileName: aws.String("web"), Path: aws.String("/apps/"),
		Tags: []iamtypes.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	p := out.InstanceProfile
	if aws.ToString(p.Arn) != "arn:aws:iam::000000000000:instance-profile/apps/web" || !profileIDPattern.MatchString(aws.ToString(p.InstanceProfileId)) ||
		p.Roles == nil || len(p.Roles) != 0 || len(p.Tags) != 1 {
		t.Errorf("CreateInstanceProfile answered %+v", p)
	}
	if _, err := c.CreateInstanceProfile(ctx, &iam.CreateInstanceProfileInput{InstanceProfileName: aws.String("WEB")}); errorCode(err) != "EntityAlreadyExists" {
		t.Errorf("a profile of the same name in another case: %v, want EntityAlreadyExists", err)
	}
	profile := aws.String("web")
	newRole(t, c, "web-role")
	newRole(t, c, "other-role")
	if _, err := c.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: profile, RoleName: aws.String("missing")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("adding a missing role: %v, want NoSuchEntity", err)
	}
	if _, err := c.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: profile, RoleName: aws.String("web-role")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: profile, RoleName: aws.String("other-role")}); errorCode(err) != "LimitExceeded" {
		t.Errorf("a second role: %v, want LimitExceeded", err)
	}
	got, err := c.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: profile})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.InstanceProfile.Roles) != 1 || aws.ToString(got.InstanceProfile.Roles[0].RoleName) != "web-role" ||
		decodeDocument(t, got.InstanceProfile.Roles[0].AssumeRolePolicyDocument) != ec2Trust {
		t.Errorf("GetInstanceProfile's roles: %+v", got.InstanceProfile.Roles)
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: aws.String("web-role")}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting a role in a profile: %v, want DeleteConflict", err)
	}
	if _, err := c.DeleteInstanceProfile(ctx, &iam.DeleteInstanceProfileInput{InstanceProfileName: profile}); errorCode(err) != "DeleteConflict" {
		t.Errorf("deleting a profile with a role: %v, want DeleteConflict", err)
	}
	if _, err := c.CreateInstanceProfile(ctx, &iam.CreateInstanceProfileInput{InstanceProfileName: aws.String("batch")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: aws.String("batch"), RoleName: aws.String("web-role")}); err != nil {
		t.Fatal(err)
	}
	list, err := c.ListInstanceProfilesForRole(ctx, &iam.ListInstanceProfilesForRoleInput{RoleName: aws.String("web-role"), MaxItems: aws.Int32(1)})
	if err != nil || len(list.InstanceProfiles) != 1 || !list.IsTruncated || aws.ToString(list.InstanceProfiles[0].InstanceProfileName) != "batch" {
		t.Errorf("first page of the role's profiles: %+v, %v", list, err)
	}
	none, err := c.ListInstanceProfilesForRole(ctx, &iam.ListInstanceProfilesForRoleInput{RoleName: aws.String("other-role")})
	if err != nil || len(none.InstanceProfiles) != 0 {
		t.Errorf("profiles of a role in none: %+v, %v", none, err)
	}
	if _, err := c.TagInstanceProfile(ctx, &iam.TagInstanceProfileInput{InstanceProfileName: profile,
		Tags: []iamtypes.Tag{{Key: aws.String("Team"), Value: aws.String("edge")}, {Key: aws.String("env"), Value: aws.String("prod")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagInstanceProfile(ctx, &iam.UntagInstanceProfileInput{InstanceProfileName: profile, TagKeys: []string{"env"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListInstanceProfileTags(ctx, &iam.ListInstanceProfileTagsInput{InstanceProfileName: profile})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]string{}
	for _, tg := range tags.Tags {
		have[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if diff := cmp.Diff(map[string]string{"Team": "edge"}, have); diff != "" {
		t.Errorf("the profile's tags\n-want +got:\n%s", diff)
	}
	if _, err := c.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: profile, RoleName: aws.String("other-role")}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("removing a role the profile does not hold: %v, want NoSuchEntity", err)
	}
	for _, name := range []string{"web", "batch"} {
		if _, err := c.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: aws.String(name), RoleName: aws.String("web-role")}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DeleteInstanceProfile(ctx, &iam.DeleteInstanceProfileInput{InstanceProfileName: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: profile}); errorCode(err) != "NoSuchEntity" {
		t.Errorf("a deleted profile: %v, want NoSuchEntity", err)
	}
	if _, err := c.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: aws.String("web-role")}); err != nil {
		t.Errorf("deleting the role once out of every profile: %v", err)
	}
}
