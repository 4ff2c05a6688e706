package kms

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// code returns the AWS error code of err, "" for nil.
func code(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var apiErr *core.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("%v is not an APIError", err)
	}
	return apiErr.Code
}

// TestUsable checks the check other services make of the keys they are given: a key ID, key
// ARN, alias name or alias ARN of an enabled symmetric encryption key passes; anything else gets
// the error Encrypt would answer.
func TestUsable(t *testing.T) {
	clock := &core.Clock{}
	clock.Freeze()
	b := New(clock)
	scope := core.Scope{Account: "123456789012", Region: "eu-central-1"}
	call := func() *core.Call { return &core.Call{Account: scope.Account, Region: scope.Region, Now: clock.Now()} }
	create := func(in *kms.CreateKeyInput) *types.KeyMetadata {
		t.Helper()
		out, err := b.createKey(call(), in)
		if err != nil {
			t.Fatal(err)
		}
		return out.KeyMetadata
	}
	good := create(&kms.CreateKeyInput{})
	if _, err := b.createAlias(call(), &kms.CreateAliasInput{AliasName: aws.String("alias/good"), TargetKeyId: good.KeyId}); err != nil {
		t.Fatal(err)
	}
	off := create(&kms.CreateKeyInput{})
	if _, err := b.disableKey(call(), &kms.DisableKeyInput{KeyId: off.KeyId}); err != nil {
		t.Fatal(err)
	}
	doomed := create(&kms.CreateKeyInput{})
	if _, err := b.scheduleKeyDeletion(call(), &kms.ScheduleKeyDeletionInput{KeyId: doomed.KeyId, PendingWindowInDays: aws.Int32(7)}); err != nil {
		t.Fatal(err)
	}
	signing := create(&kms.CreateKeyInput{KeySpec: types.KeySpecEccNistP256, KeyUsage: types.KeyUsageTypeSignVerify})
	cases := map[string]struct {
		ref, want string
	}{
		"KeyID":        {aws.ToString(good.KeyId), ""},
		"KeyARN":       {aws.ToString(good.Arn), ""},
		"AliasName":    {"alias/good", ""},
		"AliasARN":     {"arn:aws:kms:eu-central-1:123456789012:alias/good", ""},
		"AWSManaged":   {"alias/aws/sqs", ""},
		"Disabled":     {aws.ToString(off.KeyId), "DisabledException"},
		"Pending":      {aws.ToString(doomed.KeyId), "KMSInvalidStateException"},
		"Signing":      {aws.ToString(signing.KeyId), "InvalidKeyUsageException"},
		"NoSuchAlias":  {"alias/none", "NotFoundException"},
		"NoSuchKey":    {"0b0e2f9e-1c3a-4f5b-8d7e-123456789abc", "NotFoundException"},
		"OtherRegion":  {"arn:aws:kms:us-east-1:123456789012:key/" + aws.ToString(good.KeyId), "NotFoundException"},
		"NotAnID":      {"my-key", "NotFoundException"},
		"OtherAccount": {"arn:aws:kms:eu-central-1:000000000000:key/" + aws.ToString(good.KeyId), "NotFoundException"},
	}
	for name, tc := range cases {
		if got := code(t, b.Usable(scope, tc.ref)); got != tc.want {
			t.Errorf("Usable %s (%s) = %q, want %q", name, tc.ref, got, tc.want)
		}
	}
	if arn, err := b.KeyARN(scope, "alias/good"); err != nil || arn != aws.ToString(good.Arn) {
		t.Errorf("KeyARN(alias/good) = %s, %v; want %s", arn, err, aws.ToString(good.Arn))
	}
	if arn, err := b.KeyARN(scope, aws.ToString(off.KeyId)); err != nil || arn != aws.ToString(off.Arn) {
		t.Errorf("KeyARN of a disabled key = %s, %v; want its ARN whatever its state", arn, err)
	}
	clock.Advance(7 * 24 * time.Hour)
	if got := code(t, b.Usable(scope, aws.ToString(doomed.KeyId))); got != "NotFoundException" {
		t.Errorf("Usable after the key's waiting period = %q, want NotFoundException", got)
	}
}
