package emulator_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/google/go-cmp/cmp"
)

// TestKMSKeyPolicy checks the default key policy, GetKeyPolicy, PutKeyPolicy and
// ListKeyPolicies, and the one policy name, "default".
func TestKMSKeyPolicy(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	id := newKey(t, c, nil).KeyId
	got, err := c.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: id})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(got.Policy)), &doc); err != nil {
		t.Fatalf("the default policy is not JSON: %v\n%s", err, aws.ToString(got.Policy))
	}
	want := map[string]any{"Version": "2012-10-17", "Id": "key-default-1", "Statement": []any{map[string]any{
		"Sid": "Enable IAM User Permissions", "Effect": "Allow", "Principal": map[string]any{"AWS": "arn:aws:iam::000000000000:root"},
		"Action": "kms:*", "Resource": "*"}}}
	if diff := cmp.Diff(want, doc); diff != "" || aws.ToString(got.PolicyName) != "default" {
		t.Errorf("default key policy %q\n-want +got:\n%s", aws.ToString(got.PolicyName), diff)
	}
	policy := `{"Version":"2012-10-17","Statement":[{"Sid":"ops","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::000000000000:role/ops"},"Action":"kms:*","Resource":"*"}]}`
	if _, err := c.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: id, Policy: aws.String(policy), PolicyName: aws.String("default")}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: id, PolicyName: aws.String("default")}); err != nil || aws.ToString(got.Policy) != policy {
		t.Errorf("GetKeyPolicy after PutKeyPolicy = %v, %v; want the policy put", got, err)
	}
	names, err := c.ListKeyPolicies(ctx, &kms.ListKeyPoliciesInput{KeyId: id})
	if err != nil || !cmp.Equal(names.PolicyNames, []string{"default"}) || names.Truncated {
		t.Errorf("ListKeyPolicies = %v, %v; want [default]", names, err)
	}
	for name, tc := range map[string]struct {
		call func() error
		want string
	}{
		"GetOtherName": {func() error {
			_, err := c.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: id, PolicyName: aws.String("other")})
			return err
		}, "NotFoundException"},
		"PutOtherName": {func() error {
			_, err := c.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: id, PolicyName: aws.String("other"), Policy: aws.String(policy)})
			return err
		}, "NotFoundException"},
		"PutMalformed": {func() error {
			_, err := c.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: id, Policy: aws.String("[]")})
			return err
		}, "MalformedPolicyDocumentException"},
		"PutByAlias": {func() error {
			_, err := c.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: aws.String("alias/none"), Policy: aws.String(policy)})
			return err
		}, "NotFoundException"},
		"ListLimit": {func() error {
			_, err := c.ListKeyPolicies(ctx, &kms.ListKeyPoliciesInput{KeyId: id, Limit: aws.Int32(0)})
			return err
		}, "ValidationException"},
	} {
		if err := tc.call(); errorCode(err) != tc.want {
			t.Errorf("%s: %v, want %s", name, err, tc.want)
		}
	}
}

// TestKMSKeyRotation checks automatic rotation: symmetric encryption keys only, a period of
// 90 to 2560 days (365 by default), and a next rotation date that moves on with the simulation
// clock.
func TestKMSKeyRotation(t *testing.T) {
	e, c := kmsClient(t)
	ctx := context.Background()
	id := newKey(t, c, nil).KeyId
	status := func() *kms.GetKeyRotationStatusOutput {
		t.Helper()
		out, err := c.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: id})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if s := status(); s.KeyRotationEnabled || s.RotationPeriodInDays != nil || s.NextRotationDate != nil {
		t.Errorf("a new key's rotation: %v %v %v; want disabled", s.KeyRotationEnabled, s.RotationPeriodInDays, s.NextRotationDate)
	}
	for _, days := range []int32{89, 2561} {
		if _, err := c.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: id, RotationPeriodInDays: aws.Int32(days)}); errorCode(err) != "ValidationException" {
			t.Errorf("a rotation period of %d days: %v, want ValidationException (90 to 2560)", days, err)
		}
	}
	if _, err := c.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: id}); err != nil {
		t.Fatal(err)
	}
	now := e.Clock.Now()
	if s := status(); !s.KeyRotationEnabled || aws.ToInt32(s.RotationPeriodInDays) != 365 || !sameTime(aws.ToTime(s.NextRotationDate), now.Add(365*24*time.Hour)) ||
		aws.ToString(s.KeyId) != "arn:aws:kms:us-east-1:000000000000:key/"+aws.ToString(id) {
		t.Errorf("after EnableKeyRotation: %v %v %v %s; want enabled every 365 days from now", s.KeyRotationEnabled, aws.ToInt32(s.RotationPeriodInDays), s.NextRotationDate, aws.ToString(s.KeyId))
	}
	if _, err := c.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: id, RotationPeriodInDays: aws.Int32(90)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(91 * 24 * time.Hour)
	if s := status(); aws.ToInt32(s.RotationPeriodInDays) != 90 || !sameTime(aws.ToTime(s.NextRotationDate), now.Add(180*24*time.Hour)) {
		t.Errorf("91 days into a 90-day period: every %d days, next %v; want the next rotation 180 days after enabling", aws.ToInt32(s.RotationPeriodInDays), s.NextRotationDate)
	}
	if _, err := c.DisableKeyRotation(ctx, &kms.DisableKeyRotationInput{KeyId: id}); err != nil {
		t.Fatal(err)
	}
	if s := status(); s.KeyRotationEnabled || s.NextRotationDate != nil {
		t.Errorf("after DisableKeyRotation: %v, next %v", s.KeyRotationEnabled, s.NextRotationDate)
	}
	rsa := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048, KeyUsage: kmstypes.KeyUsageTypeSignVerify}).KeyId
	hmac := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac256, KeyUsage: kmstypes.KeyUsageTypeGenerateVerifyMac}).KeyId
	for name, ref := range map[string]*string{"RSA": rsa, "HMAC": hmac} {
		if _, err := c.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: ref}); errorCode(err) != "UnsupportedOperationException" {
			t.Errorf("EnableKeyRotation on an %s key: %v, want UnsupportedOperationException", name, err)
		}
		if _, err := c.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: ref}); errorCode(err) != "UnsupportedOperationException" {
			t.Errorf("GetKeyRotationStatus on an %s key: %v, want UnsupportedOperationException", name, err)
		}
	}
}

// TestKMSTags checks tagging: 50 tags a key, AWS's reserved prefix, replacing values, removing,
// and ListResourceTags' pages.
func TestKMSTags(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	id := newKey(t, c, &kms.CreateKeyInput{Tags: kmsTags(0, 10)}).KeyId
	cases := []struct {
		name string
		tags []kmstypes.Tag
		want string
	}{
		{"UpToFifty", kmsTags(10, 40), ""},
		{"ReplaceAtFifty", numbered(0, 50, func(k, _ string) kmstypes.Tag {
			return kmstypes.Tag{TagKey: aws.String(k), TagValue: aws.String("new")}
		}), ""},
		{"FiftyFirst", kmsTags(50, 1), "TagException"},
		{"Reserved", []kmstypes.Tag{{TagKey: aws.String("AWS:team"), TagValue: aws.String("x")}}, "TagException"},
		{"LongKey", []kmstypes.Tag{{TagKey: aws.String(string(make([]byte, 129))), TagValue: aws.String("x")}}, "TagException"},
	}
	for _, tc := range cases {
		if _, err := c.TagResource(ctx, &kms.TagResourceInput{KeyId: id, Tags: tc.tags}); errorCode(err) != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := c.UntagResource(ctx, &kms.UntagResourceInput{KeyId: id, TagKeys: []string{"key0", "key1", "absent"}}); err != nil {
		t.Fatal(err)
	}
	var all []kmstypes.Tag
	var marker *string
	for pages := 1; ; pages++ {
		out, err := c.ListResourceTags(ctx, &kms.ListResourceTagsInput{KeyId: id, Limit: aws.Int32(20), Marker: marker})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, out.Tags...)
		if !out.Truncated {
			if pages != 3 {
				t.Errorf("48 tags in %d pages of 20, want 3", pages)
			}
			break
		}
		marker = out.NextMarker
	}
	if len(all) != 48 || aws.ToString(all[0].TagKey) != "key10" || aws.ToString(all[0].TagValue) != "new" {
		t.Errorf("listed %d tags starting with %v, want 48 sorted by key with their new values", len(all), all[0])
	}
	if _, err := c.ListResourceTags(ctx, &kms.ListResourceTagsInput{KeyId: id, Limit: aws.Int32(51)}); errorCode(err) != "ValidationException" {
		t.Errorf("Limit 51: %v, want ValidationException (1 to 50)", err)
	}
	if _, err := c.TagResource(ctx, &kms.TagResourceInput{KeyId: aws.String("alias/none"), Tags: kmsTags(0, 1)}); errorCode(err) != "NotFoundException" {
		t.Errorf("tagging by alias: %v, want NotFoundException (TagResource takes key IDs and key ARNs)", err)
	}
}

// TestKMSUpdateKeyDescription checks UpdateKeyDescription and its limit.
func TestKMSUpdateKeyDescription(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	m := newKey(t, c, &kms.CreateKeyInput{Description: aws.String("old")})
	if _, err := c.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: m.Arn, Description: aws.String("new")}); err != nil {
		t.Fatal(err)
	}
	out, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: m.KeyId})
	if err != nil || aws.ToString(out.KeyMetadata.Description) != "new" {
		t.Errorf("description after UpdateKeyDescription = %v, %v", out, err)
	}
	long := make([]byte, 8193)
	for i := range long {
		long[i] = 'x'
	}
	if _, err := c.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: m.KeyId, Description: aws.String(string(long))}); errorCode(err) != "ValidationException" {
		t.Errorf("a description of 8193 characters: %v, want ValidationException", err)
	}
}
