package security_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// secrets returns a Secrets Manager client of the emulator.
func (h *harness) secrets() *secretsmanager.Client {
	return secretsmanager.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
}

// secretValue returns the current value of secret name, "" when it cannot be read.
func (h *harness) secretValue(name string) string {
	out, err := h.secrets().GetSecretValue(context.Background(), &secretsmanager.GetSecretValueInput{SecretId: aws.String(name)})
	if err != nil {
		return ""
	}
	return aws.ToString(out.SecretString)
}

// describeSecret returns DescribeSecret's answer for name.
func (h *harness) describeSecret(t testing.TB, name string) *secretsmanager.DescribeSecretOutput {
	t.Helper()
	out, err := h.secrets().DescribeSecret(context.Background(), &secretsmanager.DescribeSecretInput{SecretId: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSecretsManagerSecretSeedExamples applies both seed secrets verbatim. The database
// password takes its value from the Kubernetes Secret (which wins over the inline value, with
// an event), is encrypted with the AWS managed key and rotated once when rotation is turned on;
// the API key takes its inline value. A change of the Kubernetes Secret is one PutSecretValue
// and the value is never in the object or its events; a resync writes nothing. Deleting the API
// key schedules its deletion and creating it again restores the same secret.
func TestSecretsManagerSecretSeedExamples(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	kubetest.SetSecret(t, h.c, "default", "db-password", "password", "k8s-value-1")
	h.apply(t, "secretsmanagersecret-database-password.yaml", "default")
	h.apply(t, "secretsmanagersecret-api-key.yaml", "default")
	db := kubetest.WaitReady(t, h.c, &v1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "database-password"}})
	key := kubetest.WaitReady(t, h.c, &v1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api-key"}})
	if s := db.Status; s.SecretName != "production/database/password" || !strings.Contains(s.ARN, ":secret:production/database/password-") ||
		!s.RotationEnabled || s.LastRotationDate == nil || s.VersionID == "" || s.ValueHash == "" || s.ValueSource != "secretStringSecretRef" {
		t.Errorf("status: %+v", s)
	}
	if got := h.secretValue("production/database/password"); got != "k8s-value-1" {
		t.Errorf("the database password is %q, want the Kubernetes Secret's value", got)
	}
	if got := h.secretValue("production/api/key"); got != "sk-1234567890abcdef" || key.Status.ValueSource != "secretString" {
		t.Errorf("the API key is %q from %q", got, key.Status.ValueSource)
	}
	kubetest.WaitEvent(t, h.c, db, condition.ReasonSecretStringIgnored, "secretStringSecretRef")
	out := h.describeSecret(t, "production/database/password")
	if aws.ToString(out.RotationLambdaARN) != "arn:aws:lambda:us-east-1:123456789012:function:rotate-db-password" ||
		aws.ToInt64(out.RotationRules.AutomaticallyAfterDays) != 30 || aws.ToString(out.Description) != "Master password for production database" {
		t.Errorf("rotation or description: %+v", out)
	}
	if tags := tagsOf(out); tags["Rotation"] != "enabled" || tags[shared.TagOwnerUID] != string(db.UID) {
		t.Errorf("tags: %v", tags)
	}

	// A resync writes nothing; a change of the Kubernetes Secret is one PutSecretValue.
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, db)
	if calls := kubetest.Calls(h.emu.Calls.Snapshot(), "SecretsManager"); calls["PutSecretValue"]+calls["UpdateSecret"]+calls["RotateSecret"] != 0 {
		t.Errorf("a resync of an unchanged secret wrote: %v", calls)
	}
	h.emu.Calls.Reset()
	firstHash := db.Status.ValueHash
	kubetest.SetSecret(t, h.c, "default", "db-password", "password", "k8s-value-2")
	kubetest.WaitFor(t, h.c, db, kubetest.Timeout, "the new value written", func(s *v1alpha1.SecretsManagerSecret) bool {
		return h.secretValue("production/database/password") == "k8s-value-2" && s.Status.ValueHash != firstHash
	})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "SecretsManager")["PutSecretValue"]; n != 1 {
		t.Errorf("the new value took %d PutSecretValue calls, want 1", n)
	}
	kubetest.AssertNowhere(t, h.c, "default", db, "k8s-value-1")
	kubetest.AssertNowhere(t, h.c, "default", db, "k8s-value-2")

	// Deleted with the default recovery window, then restored by a new object of the name.
	arn := key.Status.ARN
	kubetest.Delete(t, h.c, key)
	if out := h.describeSecret(t, "production/api/key"); out.DeletedDate == nil {
		t.Fatalf("the deleted API key is not scheduled for deletion")
	}
	again := h.apply(t, "secretsmanagersecret-api-key.yaml", "default")
	restored := kubetest.WaitReady(t, h.c, &v1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: again[0].GetName()}})
	if out := h.describeSecret(t, "production/api/key"); out.DeletedDate != nil || restored.Status.ARN != arn || tagsOf(out)[shared.TagOwnerUID] != string(restored.UID) {
		t.Errorf("the API key was not restored and reused: deleted %v, ARN %s (was %s), tags %v", out.DeletedDate, restored.Status.ARN, arn, tagsOf(out))
	}

	// Retain keeps the secret.
	kubetest.Delete(t, h.c, db)
	if out := h.describeSecret(t, "production/database/password"); out.DeletedDate != nil {
		t.Errorf("a retained secret was scheduled for deletion")
	}
}

// tagsOf returns a secret's tags as a map.
func tagsOf(out *secretsmanager.DescribeSecretOutput) map[string]string {
	tags := map[string]string{}
	for _, t := range out.Tags {
		tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return tags
}

// TestSecretsManagerSecretDrift encrypts a secret with a KMSKey named by kmsKeyRef, once the
// key exists, and reverts what changes outside the operator: a value written in
// Secrets Manager is replaced by the spec's (DriftDetected), a new description and tags are
// restored; replicas are a set; turning rotation off cancels it, and with rotation on a
// rotated value is left alone; a zero recovery window deletes at once.
func TestSecretsManagerSecretDrift(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	name := ns + "/app"
	s := &v1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}}
	s.Spec.ProviderRef.Name = "aws"
	s.Spec.SecretName, s.Spec.SecretString, s.Spec.Description = name, "spec-value", "the app's secret"
	s.Spec.ReplicaRegions = []v1alpha1.ReplicaRegion{{Region: "eu-west-1"}}
	s.Spec.RecoveryWindowInDays = aws.Int32(0)
	s.Spec.KMSKeyRef = &shared.Reference{Name: "app-key"}
	kubetest.Create(t, h.c, s)
	// The KMSKey named comes after the secret: the secret waits for it, then is encrypted with it.
	kubetest.WaitCondition(t, h.c, s, "Synced", "False", condition.ReasonReferenceNotFound)
	key := newKMSKey(ns, "app-key", nil)
	kubetest.Create(t, h.c, key)
	s = kubetest.WaitReady(t, h.c, s)
	key = kubetest.WaitReady(t, h.c, key)
	if len(s.Status.Replicas) != 1 || s.Status.Replicas[0].Region != "eu-west-1" {
		t.Errorf("replicas: %+v", s.Status.Replicas)
	}
	if got := aws.ToString(h.describeSecret(t, name).KmsKeyId); got != key.Status.ARN {
		t.Errorf("the secret is encrypted with %q, want the KMSKey's %s", got, key.Status.ARN)
	}

	api := h.secrets()
	if _, err := api.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String(name), SecretString: aws.String("outside-value")}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.UpdateSecret(ctx, &secretsmanager.UpdateSecretInput{SecretId: aws.String(name), Description: aws.String("changed")}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, s, "the drift reverted", func() bool {
		return h.secretValue(name) == "spec-value" && aws.ToString(h.describeSecret(t, name).Description) == "the app's secret"
	})
	kubetest.WaitEvent(t, h.c, s, condition.ReasonDriftDetected, "secretString")

	// Replicas as a set, rotation on: the rotated value stays.
	h.patchSpec(t, s, `{"replicaRegions":[{"region":"us-west-2"}],"rotationEnabled":true,`+
		`"rotationLambdaARN":"arn:aws:lambda:us-east-1:123456789012:function:rotate","rotationRules":{"scheduleExpression":"rate(10 days)","duration":"3h"}}`)
	s = kubetest.WaitFor(t, h.c, s, kubetest.Timeout, "replicated to us-west-2 and rotated", func(x *v1alpha1.SecretsManagerSecret) bool {
		return len(x.Status.Replicas) == 1 && x.Status.Replicas[0].Region == "us-west-2" && x.Status.RotationEnabled && x.Status.LastRotationDate != nil &&
			x.Status.ObservedGeneration == x.Generation
	})
	if _, err := api.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String(name), SecretString: aws.String("rotated-value")}); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(t, h.c, s)
	if got := h.secretValue(name); got != "rotated-value" {
		t.Errorf("with rotation on, the rotated value was replaced by %q", got)
	}

	// Rotation off, then deleted at once.
	h.patchSpec(t, s, `{"rotationEnabled":false}`)
	kubetest.WaitFor(t, h.c, s, kubetest.Timeout, "rotation off", func(x *v1alpha1.SecretsManagerSecret) bool {
		return !x.Status.RotationEnabled && x.Status.ObservedGeneration == x.Generation
	})
	kubetest.Delete(t, h.c, s)
	if _, err := api.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(name)}); err == nil {
		t.Errorf("a secret with a zero recovery window still exists after its object went")
	}
}

// TestSecretsManagerSecretBadInput refuses at admission what the schema can tell is wrong; a
// missing Kubernetes Secret is a clear condition with no AWS call and the object recovers once
// it appears; a secret of the name scheduled for deletion by someone else is left alone; a lost
// CreateSecret answer is recognised by its token.
func TestSecretsManagerSecretBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	newSecret := func(name string, mutate func(*v1alpha1.SecretsManagerSecret)) *v1alpha1.SecretsManagerSecret {
		s := &v1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		s.Spec.ProviderRef.Name = "aws"
		s.Spec.SecretName = ns + "/" + name
		if mutate != nil {
			mutate(s)
		}
		return s
	}
	for _, tc := range []struct {
		mutate func(*v1alpha1.SecretsManagerSecret)
		text   string
	}{
		{func(s *v1alpha1.SecretsManagerSecret) { s.Spec.SecretName = "has spaces" }, "spec.secretName"},
		{func(s *v1alpha1.SecretsManagerSecret) { s.Spec.RotationEnabled = true }, "rotationEnabled needs rotationLambdaARN"},
		{func(s *v1alpha1.SecretsManagerSecret) { s.Spec.RecoveryWindowInDays = aws.Int32(3) }, "recoveryWindowInDays is 7 to 30 days"},
		{func(s *v1alpha1.SecretsManagerSecret) {
			s.Spec.KMSKeyID, s.Spec.KMSKeyRef = "alias/app", &shared.Reference{Name: "key"}
		}, "not both"},
		{func(s *v1alpha1.SecretsManagerSecret) { s.Spec.KMSKeyID = "my key" }, "spec.kmsKeyID"},
		{func(s *v1alpha1.SecretsManagerSecret) {
			s.Spec.RotationRules = &v1alpha1.RotationRules{AutomaticallyAfterDays: 7, ScheduleExpression: "rate(7 days)"}
		}, "not both"},
	} {
		kubetest.MustRefuse(t, h.c, newSecret("bad", tc.mutate), tc.text)
	}

	waiting := newSecret("waiting", func(s *v1alpha1.SecretsManagerSecret) {
		s.Spec.SecretStringSecretRef = &shared.SecretKeySelector{Name: "later", Key: "value"}
	})
	kubetest.Create(t, h.c, waiting)
	kubetest.WaitCondition(t, h.c, waiting, "Synced", "False", condition.ReasonSecretNotFound)
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "SecretsManager")); n != 0 {
		t.Errorf("%d Secrets Manager calls while the Kubernetes Secret is missing", n)
	}
	kubetest.SetSecret(t, h.c, ns, "later", "value", "arrived")
	kubetest.WaitReady(t, h.c, waiting)
	if got := h.secretValue(ns + "/waiting"); got != "arrived" {
		t.Errorf("value %q", got)
	}

	ctx := context.Background()
	api := h.secrets()
	if _, err := api.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String(ns + "/theirs"), SecretString: aws.String("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String(ns + "/theirs")}); err != nil {
		t.Fatal(err)
	}
	theirs := newSecret("theirs", nil)
	kubetest.Create(t, h.c, theirs)
	kubetest.WaitCondition(t, h.c, theirs, "Synced", "False", condition.ReasonScheduledForDeletion)
	if out := h.describeSecret(t, ns+"/theirs"); out.DeletedDate == nil {
		t.Errorf("someone else's secret awaiting deletion was restored")
	}

	h.emu.Faults.Set("SecretsManager.CreateSecret", emulator.Fault{ErrorAfterRate: 1})
	lost := newSecret("lost", func(s *v1alpha1.SecretsManagerSecret) { s.Spec.SecretString = "v" })
	kubetest.Create(t, h.c, lost)
	lost = kubetest.WaitReady(t, h.c, lost)
	h.emu.Faults.Set("SecretsManager.CreateSecret", emulator.Fault{})
	if lost.Annotations[shared.AnnotationExternalName] != lost.Spec.SecretName {
		t.Errorf("the secret whose create answer was lost is recorded as %q", lost.Annotations[shared.AnnotationExternalName])
	}
}
