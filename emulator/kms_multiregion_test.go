package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// TestKMSMultiRegionKeys checks ReplicateKey and what the keys of a multi-Region key share: the
// key ID, the key material (a ciphertext of one decrypts with the other) and automatic
// rotation, which is set on the primary key only; and the deletion of a primary key, which
// waits in PendingReplicaDeletion until its last replica is deleted.
func TestKMSMultiRegionKeys(t *testing.T) {
	e, east := kmsClient(t)
	west := inRegion(east, "eu-west-1")
	ctx := context.Background()
	primary := newKey(t, east, &kms.CreateKeyInput{MultiRegion: aws.Bool(true), Description: aws.String("primary")})
	single := newKey(t, east, nil)
	if _, err := east.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: single.KeyId, ReplicaRegion: aws.String("eu-west-1")}); errorCode(err) != "UnsupportedOperationException" {
		t.Errorf("replicating a single-Region key: %v, want UnsupportedOperationException", err)
	}
	if _, err := east.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: primary.KeyId, ReplicaRegion: aws.String("Europe")}); errorCode(err) != "ValidationException" {
		t.Errorf("replicating to a malformed Region: %v, want ValidationException", err)
	}
	out, err := east.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: primary.Arn, ReplicaRegion: aws.String("eu-west-1"),
		Description: aws.String("replica"), Tags: kmsTags(0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	replica := out.ReplicaKeyMetadata
	wantARN := "arn:aws:kms:eu-west-1:000000000000:key/" + aws.ToString(primary.KeyId)
	if aws.ToString(replica.KeyId) != aws.ToString(primary.KeyId) || aws.ToString(replica.Arn) != wantARN || aws.ToString(replica.Description) != "replica" ||
		replica.MultiRegionConfiguration.MultiRegionKeyType != kmstypes.MultiRegionKeyTypeReplica || replica.KeyState != kmstypes.KeyStateEnabled ||
		len(out.ReplicaTags) != 1 || aws.ToString(out.ReplicaPolicy) == "" {
		t.Errorf("ReplicateKey = %+v, tags %v", replica, out.ReplicaTags)
	}
	if _, err := east.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: primary.KeyId, ReplicaRegion: aws.String("eu-west-1")}); errorCode(err) != "AlreadyExistsException" {
		t.Errorf("replicating twice to a Region: %v, want AlreadyExistsException", err)
	}
	if _, err := west.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: replica.KeyId, ReplicaRegion: aws.String("ap-south-1")}); errorCode(err) != "UnsupportedOperationException" {
		t.Errorf("replicating a replica: %v, want UnsupportedOperationException", err)
	}
	described, err := east.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: primary.KeyId})
	if err != nil {
		t.Fatal(err)
	}
	cfg := described.KeyMetadata.MultiRegionConfiguration
	if cfg.MultiRegionKeyType != kmstypes.MultiRegionKeyTypePrimary || len(cfg.ReplicaKeys) != 1 || aws.ToString(cfg.ReplicaKeys[0].Arn) != wantARN ||
		aws.ToString(cfg.ReplicaKeys[0].Region) != "eu-west-1" {
		t.Errorf("the primary key's configuration lists %+v", cfg)
	}
	enc, err := east.Encrypt(ctx, &kms.EncryptInput{KeyId: primary.KeyId, Plaintext: []byte("everywhere")})
	if err != nil {
		t.Fatal(err)
	}
	if dec, err := west.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob}); err != nil || string(dec.Plaintext) != "everywhere" || aws.ToString(dec.KeyId) != wantARN {
		t.Errorf("decrypting in the replica's Region = %v, %v; want the plaintext, under the replica", dec, err)
	}
	if _, err := west.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: replica.KeyId}); errorCode(err) != "UnsupportedOperationException" {
		t.Errorf("EnableKeyRotation on a replica: %v, want UnsupportedOperationException", err)
	}
	if _, err := east.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: primary.KeyId}); err != nil {
		t.Fatal(err)
	}
	if s, err := west.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: replica.KeyId}); err != nil || !s.KeyRotationEnabled {
		t.Errorf("the replica's rotation after enabling it on the primary = %v, %v; want enabled", s, err)
	}

	scheduled, err := east.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: primary.KeyId, PendingWindowInDays: aws.Int32(7)})
	if err != nil {
		t.Fatal(err)
	}
	if scheduled.KeyState != kmstypes.KeyStatePendingReplicaDeletion || scheduled.DeletionDate != nil {
		t.Errorf("scheduling a primary with a replica: %s, deletion %v; want PendingReplicaDeletion without a date", scheduled.KeyState, scheduled.DeletionDate)
	}
	waiting := func() *kmstypes.KeyMetadata {
		t.Helper()
		out, err := east.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: primary.KeyId})
		if err != nil {
			t.Fatal(err)
		}
		return out.KeyMetadata
	}
	if m := waiting(); aws.ToInt32(m.PendingDeletionWindowInDays) != 7 || m.DeletionDate != nil {
		t.Errorf("the primary waiting for its replica: window %v, deletion %v; want a window of 7 days and no date", m.PendingDeletionWindowInDays, m.DeletionDate)
	}
	if _, err := east.Encrypt(ctx, &kms.EncryptInput{KeyId: primary.KeyId, Plaintext: []byte("x")}); errorCode(err) != "KMSInvalidStateException" {
		t.Errorf("encrypting with a primary pending replica deletion: %v, want KMSInvalidStateException", err)
	}
	if _, err := west.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: replica.KeyId, PendingWindowInDays: aws.Int32(10)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(10 * 24 * time.Hour)
	replicaGone := e.Clock.Now()
	if _, err := west.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: replica.KeyId}); errorCode(err) != "NotFoundException" {
		t.Errorf("the replica after its waiting period: %v, want NotFoundException", err)
	}
	if m := waiting(); m.KeyState != kmstypes.KeyStatePendingDeletion || !sameTime(aws.ToTime(m.DeletionDate), replicaGone.Add(7*24*time.Hour)) ||
		m.PendingDeletionWindowInDays != nil || len(m.MultiRegionConfiguration.ReplicaKeys) != 0 {
		t.Errorf("the primary once its replica is deleted: %s, deletion %v; want PendingDeletion 7 days after the replica went", m.KeyState, m.DeletionDate)
	}
	e.Clock.Advance(7 * 24 * time.Hour)
	if _, err := east.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: primary.KeyId}); errorCode(err) != "NotFoundException" {
		t.Errorf("the primary after its waiting period: %v, want NotFoundException", err)
	}
}

// TestKMSRegionsAreSeparate checks that keys and aliases belong to their Region.
func TestKMSRegionsAreSeparate(t *testing.T) {
	_, east := kmsClient(t)
	west := inRegion(east, "us-west-2")
	ctx := context.Background()
	m := newKey(t, east, nil)
	if _, err := west.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: m.KeyId}); errorCode(err) != "NotFoundException" {
		t.Errorf("describing a us-east-1 key in us-west-2: %v, want NotFoundException", err)
	}
	for _, c := range []*kms.Client{east, west} {
		id := newKey(t, c, nil).KeyId
		if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/same-name"), TargetKeyId: id}); err != nil {
			t.Errorf("an alias name in each Region: %v", err)
		}
	}
}
