package kmskey

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/kms"
)

// kmsAPI is the part of the KMS API the driver uses.
type kmsAPI interface {
	CreateKey(ctx context.Context, in *kms.CreateKeyInput, opts ...func(*kms.Options)) (*kms.CreateKeyOutput, error)
	DescribeKey(ctx context.Context, in *kms.DescribeKeyInput, opts ...func(*kms.Options)) (*kms.DescribeKeyOutput, error)
	ListKeys(ctx context.Context, in *kms.ListKeysInput, opts ...func(*kms.Options)) (*kms.ListKeysOutput, error)
	EnableKey(ctx context.Context, in *kms.EnableKeyInput, opts ...func(*kms.Options)) (*kms.EnableKeyOutput, error)
	DisableKey(ctx context.Context, in *kms.DisableKeyInput, opts ...func(*kms.Options)) (*kms.DisableKeyOutput, error)
	UpdateKeyDescription(ctx context.Context, in *kms.UpdateKeyDescriptionInput, opts ...func(*kms.Options)) (*kms.UpdateKeyDescriptionOutput, error)
	ScheduleKeyDeletion(ctx context.Context, in *kms.ScheduleKeyDeletionInput, opts ...func(*kms.Options)) (*kms.ScheduleKeyDeletionOutput, error)
	CancelKeyDeletion(ctx context.Context, in *kms.CancelKeyDeletionInput, opts ...func(*kms.Options)) (*kms.CancelKeyDeletionOutput, error)
	GetKeyPolicy(ctx context.Context, in *kms.GetKeyPolicyInput, opts ...func(*kms.Options)) (*kms.GetKeyPolicyOutput, error)
	PutKeyPolicy(ctx context.Context, in *kms.PutKeyPolicyInput, opts ...func(*kms.Options)) (*kms.PutKeyPolicyOutput, error)
	GetKeyRotationStatus(ctx context.Context, in *kms.GetKeyRotationStatusInput, opts ...func(*kms.Options)) (*kms.GetKeyRotationStatusOutput, error)
	EnableKeyRotation(ctx context.Context, in *kms.EnableKeyRotationInput, opts ...func(*kms.Options)) (*kms.EnableKeyRotationOutput, error)
	DisableKeyRotation(ctx context.Context, in *kms.DisableKeyRotationInput, opts ...func(*kms.Options)) (*kms.DisableKeyRotationOutput, error)
	ListResourceTags(ctx context.Context, in *kms.ListResourceTagsInput, opts ...func(*kms.Options)) (*kms.ListResourceTagsOutput, error)
	TagResource(ctx context.Context, in *kms.TagResourceInput, opts ...func(*kms.Options)) (*kms.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *kms.UntagResourceInput, opts ...func(*kms.Options)) (*kms.UntagResourceOutput, error)
	ListAliases(ctx context.Context, in *kms.ListAliasesInput, opts ...func(*kms.Options)) (*kms.ListAliasesOutput, error)
	CreateAlias(ctx context.Context, in *kms.CreateAliasInput, opts ...func(*kms.Options)) (*kms.CreateAliasOutput, error)
	UpdateAlias(ctx context.Context, in *kms.UpdateAliasInput, opts ...func(*kms.Options)) (*kms.UpdateAliasOutput, error)
	DeleteAlias(ctx context.Context, in *kms.DeleteAliasInput, opts ...func(*kms.Options)) (*kms.DeleteAliasOutput, error)
}

var _ kmsAPI = (*kms.Client)(nil)
