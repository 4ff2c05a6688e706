package security_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// keyPolicy is a key policy like the seed's: the account's root may do everything, S3 may
// decrypt and make data keys.
const keyPolicy = `{"Version":"2012-10-17","Statement":[
{"Sid":"Root","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"kms:*","Resource":"*"},
{"Sid":"S3","Effect":"Allow","Principal":{"Service":"s3.amazonaws.com"},"Action":["kms:Decrypt","kms:GenerateDataKey"],"Resource":"*"}]}`

// keyPolicyRewritten says what keyPolicy says, written another way: other statement and key
// order, single values as lists and lists in another order.
const keyPolicyRewritten = `{"Statement":[
{"Resource":["*"],"Action":["kms:GenerateDataKey","kms:Decrypt"],"Principal":{"Service":["s3.amazonaws.com"]},"Effect":"Allow","Sid":"S3"},
{"Action":["kms:*"],"Sid":"Root","Resource":"*","Principal":{"AWS":["arn:aws:iam::123456789012:root"]},"Effect":"Allow"}],"Version":"2012-10-17"}`

// kmsClient returns a KMS client of the emulator.
func (h *harness) kmsClient() *kms.Client {
	return kms.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
}

// kmsKey returns DescribeKey's answer for key id.
func (h *harness) kmsKey(t testing.TB, id string) *types.KeyMetadata {
	t.Helper()
	out, err := h.kmsClient().DescribeKey(context.Background(), &kms.DescribeKeyInput{KeyId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	return out.KeyMetadata
}

// kmsTags returns the tags of key id.
func (h *harness) kmsTags(t testing.TB, id string) map[string]string {
	t.Helper()
	out, err := h.kmsClient().ListResourceTags(context.Background(), &kms.ListResourceTagsInput{KeyId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, tg := range out.Tags {
		tags[aws.ToString(tg.TagKey)] = aws.ToString(tg.TagValue)
	}
	return tags
}

// kmsAliases returns the names of the aliases that point at key id, sorted.
func (h *harness) kmsAliases(t testing.TB, id string) []string {
	t.Helper()
	out, err := h.kmsClient().ListAliases(context.Background(), &kms.ListAliasesInput{KeyId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range out.Aliases {
		names = append(names, aws.ToString(a.AliasName))
	}
	slices.Sort(names)
	return names
}

// kmsPolicy returns the key policy of key id.
func (h *harness) kmsPolicy(t testing.TB, id string) string {
	t.Helper()
	out, err := h.kmsClient().GetKeyPolicy(context.Background(), &kms.GetKeyPolicyInput{KeyId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.Policy)
}

// kmsRotation returns GetKeyRotationStatus's answer for key id.
func (h *harness) kmsRotation(t testing.TB, id string) *kms.GetKeyRotationStatusOutput {
	t.Helper()
	out, err := h.kmsClient().GetKeyRotationStatus(context.Background(), &kms.GetKeyRotationStatusInput{KeyId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kmsCalls returns the KMS calls the emulator answered since its counts were last reset.
func (h *harness) kmsCalls() map[string]int {
	return kubetest.Calls(h.emu.Calls.Snapshot(), "KMS")
}

// newKMSKey returns a KMSKey named name in ns, using the AWSProvider "aws", changed by mutate.
func newKMSKey(ns, name string, mutate func(*v1alpha1.KMSKey)) *v1alpha1.KMSKey {
	k := &v1alpha1.KMSKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	k.Spec.ProviderRef.Name = "aws"
	if mutate != nil {
		mutate(k)
	}
	return k
}

// TestKMSKeySeedExamples applies both seed keys verbatim: each becomes Ready with its spec,
// usage, description, policy, rotation and tags; deleting the signing key (deletionPolicy
// Delete) schedules its deletion after KMS's default 30 days, and deleting the data key
// (Retain) keeps it.
func TestKMSKeySeedExamples(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	h.apply(t, "kmskey-data-encryption.yaml", "default")
	h.apply(t, "kmskey-signing.yaml", "default")
	data := kubetest.WaitReady(t, h.c, &v1alpha1.KMSKey{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "data-encryption-key"}})
	signing := kubetest.WaitReady(t, h.c, &v1alpha1.KMSKey{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "signing-key"}})

	if s := data.Status; s.KeyID == "" || !strings.HasSuffix(s.ARN, ":key/"+s.KeyID) || s.KeyState != "Enabled" || s.KeyManager != "CUSTOMER" ||
		!s.Enabled || !s.RotationEnabled || s.MultiRegion || s.DeletionDate != nil || data.Annotations[shared.AnnotationExternalName] != s.KeyID {
		t.Errorf("data key status: %+v", s)
	}
	key := h.kmsKey(t, data.Status.KeyID)
	if key.KeySpec != types.KeySpecSymmetricDefault || key.KeyUsage != types.KeyUsageTypeEncryptDecrypt ||
		aws.ToString(key.Description) != "Key for encrypting application data" || aws.ToBool(key.MultiRegion) {
		t.Errorf("data key: %+v", key)
	}
	if got := h.kmsPolicy(t, data.Status.KeyID); !policy.Equivalent(got, data.Spec.KeyPolicy) {
		t.Errorf("data key policy: %s", got)
	}
	if r := h.kmsRotation(t, data.Status.KeyID); !r.KeyRotationEnabled || aws.ToInt32(r.RotationPeriodInDays) != 365 {
		t.Errorf("data key rotation: %v, every %d days", r.KeyRotationEnabled, aws.ToInt32(r.RotationPeriodInDays))
	}
	tags := h.kmsTags(t, data.Status.KeyID)
	if tags["Purpose"] != "data-encryption" || tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(data.UID) {
		t.Errorf("data key tags: %v", tags)
	}
	if s := signing.Status; s.KeyState != "Enabled" || s.RotationEnabled {
		t.Errorf("signing key status: %+v", s)
	}
	if key := h.kmsKey(t, signing.Status.KeyID); key.KeySpec != types.KeySpecRsa2048 || key.KeyUsage != types.KeyUsageTypeSignVerify {
		t.Errorf("signing key: %s for %s", key.KeySpec, key.KeyUsage)
	}
	if n := h.kmsCalls()["CreateKey"]; n != 2 {
		t.Errorf("%d CreateKey calls for two keys", n)
	}

	kubetest.Delete(t, h.c, signing)
	gone := h.kmsKey(t, signing.Status.KeyID)
	if want := h.emu.Clock.Now().Add(30 * 24 * time.Hour); gone.KeyState != types.KeyStatePendingDeletion || gone.DeletionDate == nil ||
		gone.DeletionDate.Before(want.Add(-time.Minute)) || gone.DeletionDate.After(want) {
		t.Errorf("the deleted signing key is %s, to be deleted on %v (want about %v)", gone.KeyState, gone.DeletionDate, want)
	}
	kubetest.Delete(t, h.c, data)
	if kept := h.kmsKey(t, data.Status.KeyID); kept.KeyState != types.KeyStateEnabled {
		t.Errorf("the retained data key is %s", kept.KeyState)
	}
}

// TestKMSKeyDrift reverts what changes outside the operator, with DriftDetected: the key
// policy, the description, an alias added to the key, and a deletion scheduled outside (which
// is canceled). An equivalent key policy written another way makes no PutKeyPolicy; spec
// changes disable the key and change its rotation; an alias held by another key is refused
// with AliasTaken, and moved to this key once that key belongs to this object.
func TestKMSKeyDrift(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx, api := context.Background(), h.kmsClient()
	k := newKMSKey(ns, "app", func(k *v1alpha1.KMSKey) {
		k.Spec.Description, k.Spec.KeyPolicy, k.Spec.EnableKeyRotation = "app data", keyPolicy, true
		k.Spec.Aliases = []string{"alias/" + ns + "/app"}
	})
	kubetest.Create(t, h.c, k)
	k = kubetest.WaitReady(t, h.c, k)
	id := k.Status.KeyID
	if got := h.kmsAliases(t, id); !slices.Equal(got, []string{"alias/" + ns + "/app"}) || !slices.Equal(k.Status.Aliases, got) {
		t.Errorf("aliases: %v, status %v", got, k.Status.Aliases)
	}

	// The same policy written another way: no PutKeyPolicy.
	h.emu.Calls.Reset()
	h.patchSpec(t, k, `{"keyPolicy":`+jsonString(strings.ReplaceAll(keyPolicyRewritten, "\n", ""))+`}`)
	k = kubetest.WaitReady(t, h.c, k)
	if n := h.kmsCalls()["PutKeyPolicy"]; n != 0 {
		t.Errorf("an equivalent key policy was written %d times", n)
	}

	// Drift: the policy loses a statement, the description changes, an alias is added.
	narrowed := `{"Version":"2012-10-17","Statement":[{"Sid":"Root","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"kms:*","Resource":"*"}]}`
	for _, call := range []func() error{
		func() error {
			_, err := api.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: aws.String(id), PolicyName: aws.String("default"), Policy: aws.String(narrowed)})
			return err
		},
		func() error {
			_, err := api.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: aws.String(id), Description: aws.String("changed")})
			return err
		},
		func() error {
			_, err := api.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/" + ns + "/extra"), TargetKeyId: aws.String(id)})
			return err
		},
	} {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	kubetest.ResyncUntil(t, h.c, k, "the drift reverted", func() bool {
		return policy.Equivalent(h.kmsPolicy(t, id), keyPolicy) && aws.ToString(h.kmsKey(t, id).Description) == "app data" &&
			slices.Equal(h.kmsAliases(t, id), []string{"alias/" + ns + "/app"})
	})
	kubetest.WaitEvent(t, h.c, k, condition.ReasonDriftDetected, "keyPolicy")
	kubetest.WaitEvent(t, h.c, k, condition.ReasonDriftDetected, "aliases")

	// Deleted outside the operator: the deletion is canceled and the key enabled again.
	if _, err := api.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: aws.String(id), PendingWindowInDays: aws.Int32(7)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, k, "the deletion canceled", func() bool { return h.kmsKey(t, id).KeyState == types.KeyStateEnabled })
	kubetest.WaitEvent(t, h.c, k, condition.ReasonDriftDetected, "keyState")

	// Spec changes: another rotation period, then disabled.
	h.patchSpec(t, k, `{"rotationPeriodInDays":180}`)
	k = kubetest.WaitReady(t, h.c, k)
	if r := h.kmsRotation(t, id); !r.KeyRotationEnabled || aws.ToInt32(r.RotationPeriodInDays) != 180 {
		t.Errorf("rotation: %v, every %d days", r.KeyRotationEnabled, aws.ToInt32(r.RotationPeriodInDays))
	}
	h.patchSpec(t, k, `{"enabled":false}`)
	k = kubetest.WaitReady(t, h.c, k)
	if state := h.kmsKey(t, id).KeyState; state != types.KeyStateDisabled || k.Status.Enabled || k.Status.KeyState != "Disabled" {
		t.Errorf("disabled: KMS says %s, status %+v", state, k.Status)
	}

	// An alias of another key, which this object does not own: refused, nothing moved.
	other, err := api.CreateKey(ctx, &kms.CreateKeyInput{Description: aws.String("not the operator's")})
	if err != nil {
		t.Fatal(err)
	}
	otherID, taken := aws.ToString(other.KeyMetadata.KeyId), "alias/"+ns+"/taken"
	if _, err := api.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String(taken), TargetKeyId: aws.String(otherID)}); err != nil {
		t.Fatal(err)
	}
	h.patchSpec(t, k, `{"aliases":["alias/`+ns+`/app","`+taken+`"]}`)
	got := kubetest.WaitCondition(t, h.c, k, "Synced", "False", condition.ReasonAliasTaken)
	if msg := strings.Join(kubetest.ConditionTexts(got.Status.Conditions), " "); !strings.Contains(msg, taken) || !strings.Contains(msg, otherID) {
		t.Errorf("AliasTaken does not name the alias and its key: %s", msg)
	}
	if got := h.kmsAliases(t, otherID); !slices.Equal(got, []string{taken}) {
		t.Errorf("the other key's aliases: %v", got)
	}

	// Once the other key carries this object's ownership tag, its alias is moved here.
	if _, err := api.TagResource(ctx, &kms.TagResourceInput{KeyId: aws.String(otherID),
		Tags: []types.Tag{{TagKey: aws.String(shared.TagOwnerUID), TagValue: aws.String(string(k.UID))}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, k, "the alias moved", func() bool {
		return slices.Equal(h.kmsAliases(t, id), []string{"alias/" + ns + "/app", taken})
	})
	if n := h.kmsCalls()["UpdateAlias"]; n != 1 {
		t.Errorf("the alias was moved with %d UpdateAlias calls", n)
	}
	kubetest.WaitReady(t, h.c, k)
}

// TestKMSKeyDeletionWindow deletes a key with a 7-day waiting period: it is PendingDeletion
// for 7 days with its aliases deleted. An object of the same name created meanwhile cancels
// the deletion, enables the key and takes it back, with its ownership tags and aliases, and no
// second CreateKey.
func TestKMSKeyDeletionWindow(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	alias := "alias/" + ns + "/orders"
	spec := func(k *v1alpha1.KMSKey) {
		k.Spec.PendingWindowInDays, k.Spec.Aliases, k.Spec.Tags = 7, []string{alias}, map[string]string{"team": "orders"}
	}
	k := newKMSKey(ns, "orders", spec)
	kubetest.Create(t, h.c, k)
	k = kubetest.WaitReady(t, h.c, k)
	id := k.Status.KeyID

	kubetest.Delete(t, h.c, k)
	key := h.kmsKey(t, id)
	if want := h.emu.Clock.Now().Add(7 * 24 * time.Hour); key.KeyState != types.KeyStatePendingDeletion || key.DeletionDate == nil ||
		key.DeletionDate.Before(want.Add(-time.Minute)) || key.DeletionDate.After(want) {
		t.Errorf("the deleted key is %s, to be deleted on %v (want about %v)", key.KeyState, key.DeletionDate, want)
	}
	if got := h.kmsAliases(t, id); len(got) != 0 {
		t.Errorf("the deleted key keeps its aliases %v", got)
	}

	h.emu.Calls.Reset()
	again := newKMSKey(ns, "orders", spec)
	kubetest.Create(t, h.c, again)
	again = kubetest.WaitReady(t, h.c, again)
	calls := h.kmsCalls()
	if again.Status.KeyID != id || calls["CreateKey"] != 0 || calls["CancelKeyDeletion"] != 1 {
		t.Errorf("the new object has key %s (the deleted one was %s), after %d CreateKey and %d CancelKeyDeletion calls",
			again.Status.KeyID, id, calls["CreateKey"], calls["CancelKeyDeletion"])
	}
	tags := h.kmsTags(t, id)
	if key := h.kmsKey(t, id); key.KeyState != types.KeyStateEnabled || tags[shared.TagOwnerUID] != string(again.UID) || tags["team"] != "orders" ||
		tags[shared.Group+"/deletion-scheduled"] != "" {
		t.Errorf("the reused key is %s with tags %v", key.KeyState, tags)
	}
	if got := h.kmsAliases(t, id); !slices.Equal(got, []string{alias}) {
		t.Errorf("the reused key's aliases: %v", got)
	}
	kubetest.WaitEvent(t, h.c, again, condition.ReasonKeyReused, id)
}

// TestKMSKeyBadInputAndLostCreate refuses at admission what the schema can tell is wrong (a
// usage the key spec does not allow, rotation of an asymmetric key, a waiting period out of
// range, an AWS alias, changes of what is fixed at creation) and a key policy that is not JSON
// before any AWS call; a CreateKey whose answer is lost leaves one key, found by its tags.
func TestKMSKeyBadInputAndLostCreate(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	for _, tc := range []struct {
		mutate func(*v1alpha1.KMSKey)
		text   string
	}{
		{func(k *v1alpha1.KMSKey) { k.Spec.KeySpec = "HMAC_256" }, "keyUsage ENCRYPT_DECRYPT (ENCRYPT_DECRYPT unless set) does not go with keySpec HMAC_256"},
		{func(k *v1alpha1.KMSKey) { k.Spec.KeySpec, k.Spec.KeyUsage = "ECC_NIST_P256", "ENCRYPT_DECRYPT" }, "does not go with keySpec ECC_NIST_P256"},
		{func(k *v1alpha1.KMSKey) { k.Spec.KeySpec, k.Spec.KeyUsage = "SYMMETRIC_DEFAULT", "SIGN_VERIFY" }, "does not go with keySpec SYMMETRIC_DEFAULT"},
		{func(k *v1alpha1.KMSKey) {
			k.Spec.KeySpec, k.Spec.KeyUsage, k.Spec.EnableKeyRotation = "RSA_2048", "SIGN_VERIFY", true
		}, "enableKeyRotation is for symmetric encryption keys only"},
		{func(k *v1alpha1.KMSKey) { k.Spec.RotationPeriodInDays = 180 }, "rotationPeriodInDays needs enableKeyRotation"},
		{func(k *v1alpha1.KMSKey) { k.Spec.PendingWindowInDays = 5 }, "spec.pendingWindowInDays"},
		{func(k *v1alpha1.KMSKey) { k.Spec.Aliases = []string{"alias/aws/s3"} }, "reserved for AWS managed keys"},
		{func(k *v1alpha1.KMSKey) { k.Spec.Aliases = []string{"my-key"} }, "spec.aliases[0]"},
		{func(k *v1alpha1.KMSKey) { k.Spec.KeySpec = "AES_128" }, "spec.keySpec"},
	} {
		kubetest.MustRefuse(t, h.c, newKMSKey(ns, "bad", tc.mutate), tc.text)
	}
	notJSON := newKMSKey(ns, "not-json", func(k *v1alpha1.KMSKey) { k.Spec.KeyPolicy = "allow everyone" })
	kubetest.Create(t, h.c, notJSON)
	kubetest.WaitCondition(t, h.c, notJSON, "Synced", "False", condition.ReasonInvalidSpec)
	if n := kubetest.Total(h.kmsCalls()); n != 0 {
		t.Errorf("%d KMS calls for a spec refused before any", n)
	}

	h.emu.Faults.Set("KMS.CreateKey", emulator.Fault{ErrorAfterRate: 1})
	lost := newKMSKey(ns, "lost", nil)
	kubetest.Create(t, h.c, lost)
	lost = kubetest.WaitReady(t, h.c, lost)
	h.emu.Faults.Set("KMS.CreateKey", emulator.Fault{})
	var owned []string
	keys, err := h.kmsClient().ListKeys(context.Background(), &kms.ListKeysInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range keys.Keys {
		if h.kmsTags(t, aws.ToString(e.KeyId))[shared.TagOwnerUID] == string(lost.UID) {
			owned = append(owned, aws.ToString(e.KeyId))
		}
	}
	if n := h.kmsCalls()["CreateKey"]; !slices.Equal(owned, []string{lost.Status.KeyID}) || lost.Annotations[shared.AnnotationExternalName] != lost.Status.KeyID || n != 1 {
		t.Errorf("keys of the object whose CreateKey answer was lost: %v after %d CreateKey calls; recorded %q", owned, n, lost.Annotations[shared.AnnotationExternalName])
	}

	// What a key is made with cannot change.
	for _, tc := range []struct {
		mutate func(*v1alpha1.KMSKey)
		text   string
	}{
		{func(k *v1alpha1.KMSKey) { k.Spec.KeySpec, k.Spec.KeyUsage = "RSA_2048", "SIGN_VERIFY" }, "keySpec cannot change"},
		{func(k *v1alpha1.KMSKey) { k.Spec.MultiRegion = true }, "multiRegion cannot change"},
	} {
		kubetest.MustRefuseUpdate(t, h.c, lost, tc.mutate, tc.text)
	}
}
