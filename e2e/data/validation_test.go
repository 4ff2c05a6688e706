package data_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The KMS key forms AWS takes, and look-alikes it refuses.
var (
	goodKMSKeys = []string{
		"1234abcd-12ab-34cd-56ef-1234567890ab",
		"mrk-1234abcd12ab34cd56ef1234567890ab",
		"arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
		"arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/mrk-1234abcd12ab34cd56ef1234567890ab",
		"alias/my-key",
		"alias/aws/s3",
		"arn:aws:kms:eu-west-1:123456789012:alias/team/key_1-2",
	}
	badKMSKeys = []string{
		"my-key",
		"alias/",
		"alias/has space",
		"key/1234abcd-12ab-34cd-56ef-1234567890ab",
		"1234abcd-12ab-34cd-56ef-1234567890a",
		"mrk-1234",
		"arn:aws:kms:us-east-1:123:key/1234abcd-12ab-34cd-56ef-1234567890ab",
		"arn:aws:kms:us-east-1:123456789012:key/xxx",
		"arn:aws:s3:us-east-1:123456789012:alias/my-key",
	}
)

// kmsMessage is a part of the message every kind gives for a malformed KMS key.
const kmsMessage = "give the KMS key as a key id"

// accepts asserts that the API server admits o (a dry run: nothing is stored).
func accepts(t *testing.T, c client.Client, o client.Object) {
	t.Helper()
	if err := c.Create(context.Background(), o, client.DryRunAll); err != nil {
		t.Errorf("%s was refused, want it admitted: %v", o.GetName(), err)
	}
}

// TestAdmissionRefusesWhatAWSRefuses checks that tags, S3 lifecycle rules, KMS keys and the RDS
// settings AWS would refuse are refused at admission with a message saying what to do, and
// that their valid neighbours are admitted.
func TestAdmissionRefusesWhatAWSRefuses(t *testing.T) {
	h := start(t)
	c := h.env.Client
	bucket := func(name string, mutate func(*v1alpha1.S3Bucket)) *v1alpha1.S3Bucket {
		b := newBucket(name, "infra-test-admission", shared.DeletionPolicyDelete)
		mutate(b)
		return b
	}
	withTags := func(tags map[string]string) func(*v1alpha1.S3Bucket) {
		return func(b *v1alpha1.S3Bucket) { b.Spec.Tags = tags }
	}
	rule := func(exp int32, transitions ...v1alpha1.S3Transition) func(*v1alpha1.S3Bucket) {
		return func(b *v1alpha1.S3Bucket) {
			r := v1alpha1.S3LifecycleRule{ID: "r", Enabled: true, Transitions: transitions}
			if exp > 0 {
				r.Expiration = &v1alpha1.S3Expiration{Days: exp}
			}
			b.Spec.LifecycleRules = []v1alpha1.S3LifecycleRule{r}
		}
	}
	rds := func(name string, mutate func(*v1alpha1.RDSInstanceSpec)) *v1alpha1.RDSInstance {
		i := rdsInstance("default", name, "admission-db", "pw")
		mutate(&i.Spec)
		return i
	}
	engine := func(engine, user string) func(*v1alpha1.RDSInstanceSpec) {
		return func(s *v1alpha1.RDSInstanceSpec) { s.Engine, s.MasterUsername, s.EngineVersion = engine, user, "" }
	}

	keyRef := &shared.Reference{Name: "key"}
	type refusal struct {
		o    client.Object
		want string
	}
	refused := map[string]refusal{
		"tag-empty-key":   {bucket("tag-empty-key", withTags(map[string]string{"": "v"})), "tag keys are 1 to 128 characters long"},
		"tag-long-key":    {bucket("tag-long-key", withTags(map[string]string{strings.Repeat("k", 129): "v"})), "tag keys are 1 to 128 characters long"},
		"tag-key-comma":   {bucket("tag-key-comma", withTags(map[string]string{"a,b": "v"})), "tag keys may hold only letters, digits, spaces and _ . : / = + - @"},
		"tag-long-value":  {bucket("tag-long-value", withTags(map[string]string{"k": strings.Repeat("v", 257)})), "tag values are at most 256 characters long"},
		"ia-too-soon":     {bucket("ia-too-soon", rule(0, v1alpha1.S3Transition{Days: 29, StorageClass: "STANDARD_IA"})), "needs days of 30 or more"},
		"onezone-soon":    {bucket("onezone-soon", rule(0, v1alpha1.S3Transition{Days: 0, StorageClass: "ONEZONE_IA"})), "needs days of 30 or more"},
		"expire-at-move":  {bucket("expire-at-move", rule(90, v1alpha1.S3Transition{Days: 90, StorageClass: "GLACIER"})), "expiration.days must be greater than the days of every transition"},
		"expire-too-soon": {bucket("expire-too-soon", rule(60, v1alpha1.S3Transition{Days: 30, StorageClass: "STANDARD_IA"}, v1alpha1.S3Transition{Days: 90, StorageClass: "GLACIER"})), "expiration.days must be greater"},
		"rds-kms":         {rds("rds-kms", func(s *v1alpha1.RDSInstanceSpec) { s.StorageEncrypted, s.KMSKeyID = aws.Bool(true), "my-key" }), kmsMessage},
		"rds-pi-kms": {rds("rds-pi-kms", func(s *v1alpha1.RDSInstanceSpec) {
			s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, KMSKeyID: "arn:aws:kms:us-east-1:123456789012:key/xxx"}
		}), kmsMessage},
		"ddb-kms": {newTable("default", "ddb-kms", "ddb-kms", func(o *v1alpha1.DynamoDBTable) {
			o.Spec.ServerSideEncryption = &v1alpha1.DynamoDBServerSideEncryption{Enabled: true, KMSKeyID: "alias/"}
		}), kmsMessage},
		"pi-retention": {rds("pi-retention", func(s *v1alpha1.RDSInstanceSpec) {
			s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, RetentionPeriod: aws.Int32(100)}
		}), "retentionPeriod is 7, 731, or 31 times a number of months"},
		"snapshot-hyphen": {rds("snapshot-hyphen", func(s *v1alpha1.RDSInstanceSpec) {
			s.FinalSnapshot = &v1alpha1.RDSFinalSnapshot{Identifier: "final-"}
		}), "a final snapshot identifier cannot end with a hyphen or hold two consecutive hyphens"},
		"snapshot-hyphens": {rds("snapshot-hyphens", func(s *v1alpha1.RDSInstanceSpec) {
			s.FinalSnapshot = &v1alpha1.RDSFinalSnapshot{Identifier: "final--snap"}
		}), "cannot end with a hyphen or hold two consecutive hyphens"},
		"mysql-user-long":     {rds("mysql-user-long", engine("mysql", "a234567890123456x")), "masterUsername is too long for the engine"},
		"postgres-user-long":  {rds("postgres-user-long", engine("postgres", "a"+strings.Repeat("b", 63))), "masterUsername is too long for the engine"},
		"oracle-user-long":    {rds("oracle-user-long", engine("oracle-ee", "a"+strings.Repeat("b", 30))), "masterUsername is too long for the engine"},
		"rdsadmin":            {rds("rdsadmin", engine("mysql", "RdsAdmin")), "masterUsername rdsadmin is reserved"},
		"postgres-admin":      {rds("postgres-admin", engine("postgres", "admin")), "postgres reserves the user names admin"},
		"postgres-pg-prefix":  {rds("postgres-pg-prefix", engine("postgres", "pg_owner")), "postgres reserves the user names admin"},
		"oracle-system":       {rds("oracle-system", engine("oracle-se2", "SYSTEM")), "oracle reserves the user names sys and system"},
		"sqlserver-sa":        {rds("sqlserver-sa", engine("sqlserver-ex", "sa")), "sqlserver reserves the login name sa"},
		"backup-short":        {rds("backup-short", func(s *v1alpha1.RDSInstanceSpec) { s.PreferredBackupWindow = "03:00-03:15" }), "preferredBackupWindow must be at least 30 minutes long"},
		"backup-short-night":  {rds("backup-short-night", func(s *v1alpha1.RDSInstanceSpec) { s.PreferredBackupWindow = "23:50-00:10" }), "preferredBackupWindow must be at least 30 minutes long"},
		"maintenance-short":   {rds("maintenance-short", func(s *v1alpha1.RDSInstanceSpec) { s.PreferredMaintenanceWindow = "sun:23:50-mon:00:10" }), "preferredMaintenanceWindow must be at least 30 minutes long"},
		"maintenance-nothing": {rds("maintenance-nothing", func(s *v1alpha1.RDSInstanceSpec) { s.PreferredMaintenanceWindow = "tue:10:00-tue:10:00" }), "preferredMaintenanceWindow must be at least 30 minutes long"},
		"s3-key-twice": {bucket("s3-key-twice", func(b *v1alpha1.S3Bucket) {
			b.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "aws:kms", KMSKeyID: goodKMSKeys[0], KMSKeyRef: keyRef}
		}), "give the KMS key as at most one of kmsKeyID or kmsKeyRef"},
		"s3-ref-with-aes": {bucket("s3-ref-with-aes", func(b *v1alpha1.S3Bucket) {
			b.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "AES256", KMSKeyRef: keyRef}
		}), "kmsKeyID and kmsKeyRef are only used with algorithm aws:kms"},
		"ddb-key-twice": {newTable("default", "ddb-key-twice", "ddb-key-twice", func(o *v1alpha1.DynamoDBTable) {
			o.Spec.ServerSideEncryption = &v1alpha1.DynamoDBServerSideEncryption{Enabled: true, KMSKeyID: goodKMSKeys[0], KMSKeyRef: keyRef}
		}), "give the KMS key as at most one of kmsKeyID or kmsKeyRef"},
		"ddb-ref-disabled": {newTable("default", "ddb-ref-disabled", "ddb-ref-disabled", func(o *v1alpha1.DynamoDBTable) {
			o.Spec.ServerSideEncryption = &v1alpha1.DynamoDBServerSideEncryption{KMSKeyRef: keyRef}
		}), "kmsKeyRef needs enabled: true"},
		"rds-ref-unencrypted": {rds("rds-ref-unencrypted", func(s *v1alpha1.RDSInstanceSpec) { s.KMSKeyRef = keyRef }), "kmsKeyID and kmsKeyRef need storageEncrypted: true"},
		"rds-key-twice": {rds("rds-key-twice", func(s *v1alpha1.RDSInstanceSpec) {
			s.StorageEncrypted, s.KMSKeyID, s.KMSKeyRef = aws.Bool(true), goodKMSKeys[0], keyRef
		}), "give the storage KMS key as at most one of kmsKeyID or kmsKeyRef"},
		"rds-pi-key-twice": {rds("rds-pi-key-twice", func(s *v1alpha1.RDSInstanceSpec) {
			s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, KMSKeyID: goodKMSKeys[0], KMSKeyRef: keyRef}
		}), "give the Performance Insights KMS key as at most one of kmsKeyID or kmsKeyRef"},
		"rds-pi-ref-disabled": {rds("rds-pi-ref-disabled", func(s *v1alpha1.RDSInstanceSpec) {
			s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{KMSKeyRef: keyRef}
		}), "kmsKeyRef needs enabled: true"},
	}
	for i, key := range badKMSKeys {
		name := "s3-kms-" + string(rune('a'+i))
		refused[name] = refusal{bucket(name, func(b *v1alpha1.S3Bucket) {
			b.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "aws:kms", KMSKeyID: key}
		}), kmsMessage}
	}
	for name, tc := range refused {
		t.Run("refuses/"+name, func(t *testing.T) { kubetest.MustRefuse(t, c, tc.o, tc.want) })
	}

	admitted := map[string]client.Object{
		"tags":        bucket("tags", withTags(map[string]string{"Cost Center": "R D 42", "app.kubernetes.io/name": "web", "проект": "склад", "empty": "", "k": strings.Repeat("v", 256)})),
		"ia-at-30":    bucket("ia-at-30", rule(31, v1alpha1.S3Transition{Days: 30, StorageClass: "STANDARD_IA"}, v1alpha1.S3Transition{Days: 0, StorageClass: "GLACIER"})),
		"glacier-now": bucket("glacier-now", rule(1, v1alpha1.S3Transition{Days: 0, StorageClass: "GLACIER"})),
		"pi-62": rds("pi-62", func(s *v1alpha1.RDSInstanceSpec) {
			s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, RetentionPeriod: aws.Int32(62)}
		}),
		"pi-731": rds("pi-731", func(s *v1alpha1.RDSInstanceSpec) {
			s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, RetentionPeriod: aws.Int32(731)}
		}),
		"snapshot-name": rds("snapshot-name", func(s *v1alpha1.RDSInstanceSpec) {
			s.FinalSnapshot = &v1alpha1.RDSFinalSnapshot{Identifier: "final-snap-1"}
		}),
		"postgres-user": rds("postgres-user", engine("postgres", "postgres")),
		"postgres-long": rds("postgres-long", engine("postgres", "a"+strings.Repeat("b", 62))),
		"mysql-admin":   rds("mysql-admin", engine("mysql", "admin")),
		"sqlserver-128": rds("sqlserver-128", engine("sqlserver-ex", "a"+strings.Repeat("b", 127))),
		"night-backup":  rds("night-backup", func(s *v1alpha1.RDSInstanceSpec) { s.PreferredBackupWindow = "23:45-00:15" }),
		"week-boundary": rds("week-boundary", func(s *v1alpha1.RDSInstanceSpec) { s.PreferredMaintenanceWindow = "sun:23:45-mon:00:15" }),
	}
	for i, key := range goodKMSKeys {
		name := "s3-kms-" + string(rune('a'+i))
		admitted[name] = bucket(name, func(b *v1alpha1.S3Bucket) {
			b.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "aws:kms", KMSKeyID: key}
		})
	}
	admitted["s3-kms-ref"] = bucket("s3-kms-ref", func(b *v1alpha1.S3Bucket) {
		b.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "aws:kms", KMSKeyRef: keyRef}
	})
	admitted["rds-kms-refs"] = rds("rds-kms-refs", func(s *v1alpha1.RDSInstanceSpec) {
		s.StorageEncrypted, s.KMSKeyRef = aws.Bool(true), keyRef
		s.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, KMSKeyRef: keyRef}
	})
	admitted["rds-kms"] = rds("rds-kms", func(s *v1alpha1.RDSInstanceSpec) { s.StorageEncrypted, s.KMSKeyID = aws.Bool(true), goodKMSKeys[2] })
	admitted["ddb-kms"] = newTable("default", "ddb-kms", "ddb-kms", func(o *v1alpha1.DynamoDBTable) {
		o.Spec.ServerSideEncryption = &v1alpha1.DynamoDBServerSideEncryption{Enabled: true, KMSKeyID: goodKMSKeys[6]}
	})
	for name, o := range admitted {
		t.Run("admits/"+name, func(t *testing.T) { accepts(t, c, o) })
	}
}

// TestRDSRefusalsWithoutAWSCalls checks that a backup window overlapping the maintenance window
// and a password RDS would refuse stop the instance with a terminal condition before any AWS
// write, that the condition never shows the password, and that correcting the Secret lets the
// instance be created.
func TestRDSRefusalsWithoutAWSCalls(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(ns, "aws")
	h.secret(ns, "good-pw", "password", "good-Passw0rd")
	h.emu.Calls.Reset()

	overlap := rdsInstance(ns, "overlap", "overlap-db", "good-pw")
	day := overlap.Spec.PreferredMaintenanceWindow[:3]
	overlap.Spec.PreferredBackupWindow = "10:30-11:30" // the maintenance window is <day>:10:00-<day>:11:00
	h.create(overlap)
	got := waitCondition(h, overlap, "Synced", "False", condition.ReasonInvalidSpec)
	if c := meta.FindStatusCondition(got.Status.Conditions, "Synced"); !strings.Contains(c.Message, "overlaps preferredMaintenanceWindow "+day) {
		t.Errorf("the InvalidSpec message does not explain the overlap: %q", c.Message)
	}
	if n := total(h.calls("RDS")); n != 0 {
		t.Errorf("%d RDS calls for overlapping windows, want none: %v", n, h.calls("RDS"))
	}

	const badPassword = "bad pass/word" // a space and a slash
	h.secret(ns, "bad-pw", "password", badPassword)
	inst := rdsInstance(ns, "badpw", "badpw-db", "bad-pw")
	h.create(inst)
	got = waitCondition(h, inst, "Synced", "False", condition.ReasonSecretValueInvalid)
	for _, text := range append(kubetest.ConditionTexts(got.Status.Conditions), h.events(inst, condition.ReasonSecretValueInvalid)...) {
		if strings.Contains(text, badPassword) || strings.Contains(text, "pass/word") {
			t.Errorf("a condition or event shows the password: %q", text)
		}
	}
	if c := meta.FindStatusCondition(got.Status.Conditions, "Synced"); !strings.Contains(c.Message, "Secret "+ns+"/bad-pw") || !strings.Contains(c.Message, "change the Secret's value") {
		t.Errorf("the condition does not say which Secret to change: %q", c.Message)
	}
	calls := h.calls("RDS")
	if n := calls["CreateDBInstance"] + calls["ModifyDBInstance"] + calls["AddTagsToResource"]; n != 0 {
		t.Errorf("%d RDS writes for a password RDS refuses, want none: %v", n, calls)
	}

	// Correcting the Secret (it is watched) lets the instance be created.
	fixed := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bad-pw"}}
	update(h, fixed, func(s *corev1.Secret) { s.Data = map[string][]byte{"password": []byte("fixed-Passw0rd")} })
	waitReady(h, inst)
	if n := h.calls("RDS")["CreateDBInstance"]; n != 1 {
		t.Errorf("%d CreateDBInstance calls after the Secret was fixed, want 1", n)
	}
}

// TestTagValueCharactersRefusedBeforeAWS checks that a tag value with a character AWS refuses,
// which admission cannot check at an acceptable cost, stops the resource with InvalidSpec
// before any AWS call, naming the tag and not the value.
func TestTagValueCharactersRefusedBeforeAWS(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	h.emu.Calls.Reset()
	b := newBucket("bad-tag-value", "infra-test-bad-tag-value", shared.DeletionPolicyDelete)
	b.Spec.Tags = map[string]string{"owner": "alice&bob"}
	h.create(b)
	got := waitCondition(h, b, "Synced", "False", condition.ReasonInvalidSpec)
	if c := meta.FindStatusCondition(got.Status.Conditions, "Synced"); !strings.Contains(c.Message, `the value of tag "owner" holds a character AWS refuses`) || strings.Contains(c.Message, "alice&bob") {
		t.Errorf("the condition should name the tag, not its value: %q", c.Message)
	}
	if n := total(h.calls("S3")); n != 0 {
		t.Errorf("%d S3 calls for a tag value AWS refuses, want none: %v", n, h.calls("S3"))
	}
}
