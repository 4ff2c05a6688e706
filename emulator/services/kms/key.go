package kms

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// day is the unit of KMS's waiting and rotation periods.
const day = 24 * time.Hour

// key is one KMS key in one account and Region. The replicas of a multi-Region key are keys of
// their own, with the primary's key ID, in other Regions of the account; they share its
// material.
type key struct {
	// id is the key ID: a UUID, or "mrk-" and 32 hexadecimal digits for a multi-Region key.
	id string
	// arn is the key ARN.
	arn string
	// scope is the account and Region the key lives in.
	scope core.Scope
	// description is the key's description.
	description string
	// spec and usage are the key spec and key usage, fixed at creation.
	spec  types.KeySpec
	usage types.KeyUsageType
	// manager is CUSTOMER for keys that CreateKey made, AWS for the AWS managed keys the emulator
	// makes on the first use of their alias.
	manager types.KeyManagerType
	// policy is the key policy, the only one a key has, named "default".
	policy string
	// created is the creation date.
	created time.Time
	// state is the key state: Enabled, Disabled, PendingDeletion or PendingReplicaDeletion.
	state types.KeyState
	// deletion is when a key PendingDeletion is deleted.
	deletion time.Time
	// window is the waiting period, in days, of a key scheduled for deletion.
	window int32
	// primary is the Region of the primary key of a multi-Region key, "" for a single-Region
	// key.
	primary string
	// material is the key material and the rotation settings, shared by a multi-Region key's
	// primary and replicas.
	material *material
}

// material is a key's secret and what is shared across the keys of a multi-Region key with
// it: automatic rotation, which is set on the primary key only.
type material struct {
	// secret is the AES-256 key the emulator encrypts with.
	secret []byte
	// id is the key material ID DescribeKey reports as CurrentKeyMaterialId.
	id string
	// rotation is true while automatic rotation is enabled.
	rotation bool
	// period is the rotation period in days, while rotation is enabled.
	period int32
	// next is the next automatic rotation date, while rotation is enabled.
	next time.Time
}

// newMaterial returns fresh key material.
func newMaterial() *material {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	sum := sha256.Sum256(secret)
	return &material{secret: secret, id: hex.EncodeToString(sum[:])}
}

// newKeyID returns a new key ID: a random UUID, or for a multi-Region key "mrk-" and 32
// hexadecimal digits.
func newKeyID(multiRegion bool) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	if multiRegion {
		return "mrk-" + hex.EncodeToString(b)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// keyARN returns the ARN of key ID id in scope.
func keyARN(scope core.Scope, id string) string { return scope.ARN("kms", "key/"+id) }

// multiRegion reports whether k is a multi-Region key, primary or replica.
func (k *key) multiRegion() bool { return k.primary != "" }

// replica reports whether k is a multi-Region replica key.
func (k *key) replica() bool { return k.primary != "" && k.primary != k.scope.Region }

// scheduled reports whether k is scheduled for deletion, waiting for its replicas or not.
func (k *key) scheduled() bool {
	return k.state == statePendingDeletion || k.state == stateReplicaDeletion
}

// managed returns nil when k's state lets a key management operation (EnableKey, DisableKey,
// tagging, UpdateKeyDescription, CreateAlias and the like) change it, else the key state
// table's error.
func (k *key) managed() error {
	if k.scheduled() {
		return pendingDeletion(k)
	}
	return nil
}

// usable returns nil when k's state lets a cryptographic operation use it, else the key state
// table's error: DisabledException for a disabled key, KMSInvalidStateException for one
// scheduled for deletion.
func (k *key) usable() error {
	switch {
	case k.scheduled():
		return pendingDeletion(k)
	case k.state == stateDisabled:
		return disabled(k)
	}
	return nil
}

// rotate moves the next rotation date of a rotating key past now, as the automatic rotations
// that fell due happened.
func (m *material) rotate(now time.Time) {
	if !m.rotation || m.period <= 0 {
		return
	}
	for !m.next.After(now) {
		m.next = m.next.Add(time.Duration(m.period) * day)
	}
}

// metadata returns the KeyMetadata DescribeKey and CreateKey answer for k; replicas are the
// Regions of the multi-Region key's replicas, sorted.
func (k *key) metadata(replicas []string) *types.KeyMetadata {
	algs := algorithmsOf(k.spec, k.usage)
	m := &types.KeyMetadata{
		AWSAccountId:            aws.String(k.scope.Account),
		KeyId:                   aws.String(k.id),
		Arn:                     aws.String(k.arn),
		CreationDate:            aws.Time(k.created),
		Description:             aws.String(k.description),
		Enabled:                 k.state == stateEnabled,
		KeyState:                k.state,
		KeyUsage:                k.usage,
		KeySpec:                 k.spec,
		CustomerMasterKeySpec:   types.CustomerMasterKeySpec(k.spec),
		KeyManager:              k.manager,
		Origin:                  types.OriginTypeAwsKms,
		MultiRegion:             aws.Bool(k.multiRegion()),
		EncryptionAlgorithms:    algs.encryption,
		SigningAlgorithms:       algs.signing,
		MacAlgorithms:           algs.mac,
		KeyAgreementAlgorithms:  algs.agreement,
		EncapsulationAlgorithms: algs.encapsulation,
	}
	if k.symmetricEncryption() {
		m.CurrentKeyMaterialId = aws.String(k.material.id)
	}
	switch k.state {
	case statePendingDeletion:
		m.DeletionDate = aws.Time(k.deletion)
	case stateReplicaDeletion:
		m.PendingDeletionWindowInDays = aws.Int32(k.window)
	}
	if k.multiRegion() {
		primary := core.Scope{Account: k.scope.Account, Region: k.primary}
		cfg := &types.MultiRegionConfiguration{
			MultiRegionKeyType: types.MultiRegionKeyTypePrimary,
			PrimaryKey:         &types.MultiRegionKey{Arn: aws.String(keyARN(primary, k.id)), Region: aws.String(k.primary)},
			ReplicaKeys:        []types.MultiRegionKey{},
		}
		if k.replica() {
			cfg.MultiRegionKeyType = types.MultiRegionKeyTypeReplica
		}
		for _, r := range replicas {
			scope := core.Scope{Account: k.scope.Account, Region: r}
			cfg.ReplicaKeys = append(cfg.ReplicaKeys, types.MultiRegionKey{Arn: aws.String(keyARN(scope, k.id)), Region: aws.String(r)})
		}
		m.MultiRegionConfiguration = cfg
	}
	return m
}
