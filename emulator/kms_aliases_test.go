package emulator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// TestKMSAliases checks CreateAlias, UpdateAlias and DeleteAlias: AWS's alias names, one alias
// a name, targets that are customer managed keys not pending deletion, and UpdateAlias keeping
// an alias to keys of one type and usage.
func TestKMSAliases(t *testing.T) {
	e, c := kmsClient(t)
	ctx := context.Background()
	first, second := newKey(t, c, nil), newKey(t, c, nil)
	hmac := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac256, KeyUsage: kmstypes.KeyUsageTypeGenerateVerifyMac})
	doomed := newKey(t, c, nil)
	if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: doomed.KeyId}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/app/orders"), TargetKeyId: first.KeyId}); err != nil {
		t.Fatal(err)
	}
	create := map[string]struct {
		name   string
		target *string
		want   string
	}{
		"Duplicate":       {"alias/app/orders", second.KeyId, "AlreadyExistsException"},
		"NoPrefix":        {"orders", first.KeyId, "ValidationException"},
		"BadCharacters":   {"alias/orders.v2", first.KeyId, "ValidationException"},
		"Colon":           {"alias/orders:v2", first.KeyId, "ValidationException"},
		"Reserved":        {"alias/aws/orders", first.KeyId, "InvalidAliasNameException"},
		"TargetAlias":     {"alias/other", aws.String("alias/app/orders"), "ValidationException"},
		"TargetARN":       {"alias/by-arn", first.Arn, ""},
		"TargetUnknown":   {"alias/nowhere", aws.String("0b0e2f9e-1c3a-4f5b-8d7e-123456789abc"), "NotFoundException"},
		"TargetPending":   {"alias/pending", doomed.KeyId, "KMSInvalidStateException"},
		"SecondAliasSame": {"alias/orders-again", first.KeyId, ""},
	}
	for name, tc := range create {
		_, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String(tc.name), TargetKeyId: tc.target})
		if got := errorCode(err); got != tc.want {
			t.Errorf("CreateAlias %s: %q, want %q (%v)", name, got, tc.want, err)
		}
	}
	if _, err := c.UpdateAlias(ctx, &kms.UpdateAliasInput{AliasName: aws.String("alias/app/orders"), TargetKeyId: second.Arn}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(1)
	described, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("alias/app/orders")})
	if err != nil || aws.ToString(described.KeyMetadata.KeyId) != aws.ToString(second.KeyId) {
		t.Errorf("the alias after UpdateAlias names %v, %v; want %s", described, err, aws.ToString(second.KeyId))
	}
	update := map[string]struct {
		name   string
		target *string
		want   string
	}{
		"Unknown":       {"alias/none", first.KeyId, "NotFoundException"},
		"OtherType":     {"alias/app/orders", hmac.KeyId, "ValidationException"},
		"PendingTarget": {"alias/app/orders", doomed.KeyId, "KMSInvalidStateException"},
		"Reserved":      {"alias/aws/s3", first.KeyId, "InvalidAliasNameException"},
	}
	for name, tc := range update {
		_, err := c.UpdateAlias(ctx, &kms.UpdateAliasInput{AliasName: aws.String(tc.name), TargetKeyId: tc.target})
		if got := errorCode(err); got != tc.want {
			t.Errorf("UpdateAlias %s: %q, want %q (%v)", name, got, tc.want, err)
		}
	}
	byKey, err := c.ListAliases(ctx, &kms.ListAliasesInput{KeyId: first.Arn})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range byKey.Aliases {
		names = append(names, aws.ToString(a.AliasName))
		if aws.ToString(a.TargetKeyId) != aws.ToString(first.KeyId) || aws.ToString(a.AliasArn) != "arn:aws:kms:us-east-1:000000000000:"+aws.ToString(a.AliasName) ||
			a.CreationDate == nil || a.LastUpdatedDate == nil {
			t.Errorf("alias entry %+v", a)
		}
	}
	if fmt.Sprint(names) != "[alias/by-arn alias/orders-again]" {
		t.Errorf("ListAliases of the first key = %v", names)
	}
	if _, err := c.ListAliases(ctx, &kms.ListAliasesInput{KeyId: aws.String("alias/app/orders")}); errorCode(err) != "NotFoundException" {
		t.Errorf("ListAliases by alias: %v, want NotFoundException (it takes key IDs and key ARNs)", err)
	}
	if _, err := c.DeleteAlias(ctx, &kms.DeleteAliasInput{AliasName: aws.String("alias/app/orders")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteAlias(ctx, &kms.DeleteAliasInput{AliasName: aws.String("alias/app/orders")}); errorCode(err) != "NotFoundException" {
		t.Errorf("deleting a deleted alias: %v, want NotFoundException", err)
	}
	if _, err := c.DeleteAlias(ctx, &kms.DeleteAliasInput{AliasName: aws.String("orders")}); errorCode(err) != "ValidationException" {
		t.Errorf("deleting an alias without the prefix: %v, want ValidationException", err)
	}
}

// TestKMSListAliasesPaging checks ListAliases' pages and limits.
func TestKMSListAliasesPaging(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	id := newKey(t, c, nil).KeyId
	for i := range 5 {
		if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String(fmt.Sprintf("alias/page-%d", i)), TargetKeyId: id}); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	var marker *string
	made := false
	for {
		out, err := c.ListAliases(ctx, &kms.ListAliasesInput{Limit: aws.Int32(2), Marker: marker})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range out.Aliases {
			if name := aws.ToString(a.AliasName); !strings.HasPrefix(name, "alias/aws/") {
				names = append(names, name)
			}
		}
		if !out.Truncated {
			break
		}
		marker = out.NextMarker
		// An alias made between pages sorts before the marker and is not listed twice or
		// skipping others.
		if len(names) == 2 && !made {
			made = true
			if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/page-0a"), TargetKeyId: id}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fmt.Sprint(names) != "[alias/page-0 alias/page-1 alias/page-2 alias/page-3 alias/page-4]" {
		t.Errorf("ListAliases pages = %v", names)
	}
	for _, limit := range []int32{0, 101} {
		if _, err := c.ListAliases(ctx, &kms.ListAliasesInput{Limit: aws.Int32(limit)}); errorCode(err) != "ValidationException" {
			t.Errorf("Limit %d: %v, want ValidationException (1 to 100)", limit, err)
		}
	}
	if _, err := c.ListAliases(ctx, &kms.ListAliasesInput{Marker: aws.String("%%%")}); errorCode(err) != "InvalidMarkerException" {
		t.Errorf("a marker no listing returned: %v, want InvalidMarkerException", err)
	}
}

// TestKMSAWSManagedKeys checks the AWS managed keys the emulator makes on the first use of
// their aliases: they encrypt, rotate every year, are listed, and refuse to be managed.
func TestKMSAWSManagedKeys(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	// predefined returns the alias/aws/s3 entry of ListAliases.
	predefined := func() kmstypes.AliasListEntry {
		t.Helper()
		p := kms.NewListAliasesPaginator(c, &kms.ListAliasesInput{Limit: aws.Int32(5)})
		for p.HasMorePages() {
			out, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range out.Aliases {
				if aws.ToString(a.AliasName) == "alias/aws/s3" {
					return a
				}
			}
		}
		t.Fatal("ListAliases does not list alias/aws/s3")
		return kmstypes.AliasListEntry{}
	}
	if a := predefined(); a.TargetKeyId != nil || aws.ToString(a.AliasArn) != "arn:aws:kms:us-east-1:000000000000:alias/aws/s3" {
		t.Errorf("the predefined alias before use: %+v; want no TargetKeyId", a)
	}
	out, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("alias/aws/s3")})
	if err != nil {
		t.Fatal(err)
	}
	m := out.KeyMetadata
	if m.KeyManager != kmstypes.KeyManagerTypeAws || m.KeyState != kmstypes.KeyStateEnabled || m.KeySpec != kmstypes.KeySpecSymmetricDefault {
		t.Errorf("alias/aws/s3 names %s %s %s; want an enabled AWS managed symmetric key", m.KeyManager, m.KeyState, m.KeySpec)
	}
	if a := predefined(); aws.ToString(a.TargetKeyId) != aws.ToString(m.KeyId) {
		t.Errorf("the predefined alias after use targets %s, want %s", aws.ToString(a.TargetKeyId), aws.ToString(m.KeyId))
	}
	again, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("arn:aws:kms:us-east-1:000000000000:alias/aws/s3")})
	if err != nil || aws.ToString(again.KeyMetadata.KeyId) != aws.ToString(m.KeyId) {
		t.Errorf("the alias ARN names %v, %v; want the same key", again, err)
	}
	if _, err := c.Encrypt(ctx, &kms.EncryptInput{KeyId: aws.String("alias/aws/s3"), Plaintext: []byte("object")}); err != nil {
		t.Errorf("encrypting with an AWS managed key: %v", err)
	}
	rotation, err := c.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: m.KeyId})
	if err != nil || !rotation.KeyRotationEnabled || aws.ToInt32(rotation.RotationPeriodInDays) != 365 {
		t.Errorf("AWS managed key rotation = %v, %v; want yearly", rotation, err)
	}
	aliases, err := c.ListAliases(ctx, &kms.ListAliasesInput{KeyId: m.KeyId})
	if err != nil || len(aliases.Aliases) != 1 || aws.ToString(aliases.Aliases[0].AliasName) != "alias/aws/s3" {
		t.Errorf("ListAliases of the AWS managed key = %v, %v", aliases, err)
	}
	for name, call := range map[string]func() error{
		"DisableKey": func() error { _, err := c.DisableKey(ctx, &kms.DisableKeyInput{KeyId: m.KeyId}); return err },
		"ScheduleKeyDeletion": func() error {
			_, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: m.KeyId})
			return err
		},
		"TagResource": func() error {
			_, err := c.TagResource(ctx, &kms.TagResourceInput{KeyId: m.KeyId, Tags: kmsTags(0, 1)})
			return err
		},
		"CreateAlias": func() error {
			_, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/mine"), TargetKeyId: m.KeyId})
			return err
		},
	} {
		if err := call(); errorCode(err) != "AccessDeniedException" {
			t.Errorf("%s on an AWS managed key: %v, want AccessDeniedException", name, err)
		}
	}
	if _, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("alias/aws/unknown-service")}); errorCode(err) != "NotFoundException" {
		t.Errorf("an alias/aws/ name of no service: %v, want NotFoundException", err)
	}
}
