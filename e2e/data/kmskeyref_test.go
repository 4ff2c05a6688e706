package data_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestKMSKeyRef checks that a bucket, a table and a DB instance whose kmsKeyRef fields name a
// KMSKey (run by the security family) wait, with no AWS call, until the KMSKey exists and is
// Ready, then are created encrypted with its key ARN: the emulator's S3 stores an object only
// when that key can encrypt it, and its DynamoDB creates the table only then. A table that
// names the key by its alias is in sync too, though DynamoDB reports the key by its ARN.
func TestKMSKeyRef(t *testing.T) {
	h := startWithKeys(t)
	ns := h.env.Namespace(t)
	h.provider(ns, "aws")
	h.secret(ns, "db-password", "password", "Sup3r-secret-pw")
	h.emu.Calls.Reset()
	ref := &shared.Reference{Name: "data-key"}
	bucketName := "sealed-" + ns
	bucket := &v1alpha1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "sealed"}}
	bucket.Spec.ProviderRef.Name = "aws"
	bucket.Spec.BucketName = bucketName
	bucket.Spec.Encryption = &v1alpha1.S3Encryption{Algorithm: "aws:kms", KMSKeyRef: ref}
	table := newTable(ns, "sealed", "sealed", func(o *v1alpha1.DynamoDBTable) {
		o.Spec.ServerSideEncryption = &v1alpha1.DynamoDBServerSideEncryption{Enabled: true, KMSKeyRef: ref}
	})
	db := rdsInstance(ns, "sealed", "sealed", "db-password")
	db.Spec.StorageEncrypted, db.Spec.KMSKeyRef = aws.Bool(true), ref
	db.Spec.PerformanceInsights = &v1alpha1.RDSPerformanceInsights{Enabled: true, KMSKeyRef: ref}
	for _, o := range []shared.Managed{bucket, table, db} {
		h.create(o)
		waitCondition(h, o, "Ready", "False", condition.ReasonReferenceNotFound)
	}
	for _, service := range []string{"S3", "DynamoDB", "RDS"} {
		if n := total(h.calls(service)); n != 0 {
			t.Errorf("waiting for the KMSKey made %d %s calls, want none", n, service)
		}
	}

	key := &secv1alpha1.KMSKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "data-key"}}
	key.Spec.ProviderRef.Name = "aws"
	key.Spec.Aliases = []string{"alias/data-key"}
	h.create(key)
	arn := waitReady(h, key).Status.ARN
	if !strings.HasPrefix(arn, "arn:aws:kms:") {
		t.Fatalf("the KMSKey's ARN is %q", arn)
	}
	ctx := context.Background()

	waitReady(h, bucket)
	s3c := h.s3Client()
	enc, err := s3c.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: aws.String(bucketName)})
	if err != nil || aws.ToString(enc.ServerSideEncryptionConfiguration.Rules[0].ApplyServerSideEncryptionByDefault.KMSMasterKeyID) != arn {
		t.Errorf("the bucket's default encryption is %+v (%v), want aws:kms with the KMSKey's ARN %q", enc, err, arn)
	}
	put, err := s3c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucketName), Key: aws.String("a"), Body: strings.NewReader("sealed")})
	if err != nil || aws.ToString(put.SSEKMSKeyId) != arn {
		t.Errorf("PutObject into the bucket gave key %q (%v), want the KMSKey's ARN %q", aws.ToString(put.SSEKMSKeyId), err, arn)
	}

	aliased := newTable(ns, "aliased", "aliased", func(o *v1alpha1.DynamoDBTable) {
		o.Spec.ServerSideEncryption = &v1alpha1.DynamoDBServerSideEncryption{Enabled: true, KMSKeyID: "alias/data-key"}
	})
	h.create(aliased)
	for _, tbl := range []*v1alpha1.DynamoDBTable{table, aliased} {
		waitReady(h, tbl)
		got, _ := describeTable(t, dynamodb.NewFromConfig(h.aws), tbl.Spec.TableName)
		if got.SSEDescription == nil || aws.ToString(got.SSEDescription.KMSMasterKeyArn) != arn {
			t.Errorf("the encryption of table %s is %+v, want the KMSKey's ARN %q", tbl.Spec.TableName, got.SSEDescription, arn)
		}
	}

	waitReady(h, db)
	out, err := rds.NewFromConfig(h.aws).DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String("sealed")})
	if err != nil {
		t.Fatal(err)
	}
	if inst := out.DBInstances[0]; aws.ToString(inst.KmsKeyId) != arn || aws.ToString(inst.PerformanceInsightsKMSKeyId) != arn {
		t.Errorf("the instance's storage key is %q and Performance Insights key %q, want the KMSKey's ARN %q",
			aws.ToString(inst.KmsKeyId), aws.ToString(inst.PerformanceInsightsKMSKeyId), arn)
	}
	// The key AWS reports is the spec's: nothing was changed after the creations, and two more
	// syncs of the bucket and the tables (each resync reads AWS again) change nothing. A
	// different key would be an update of the bucket or a table, and a terminal conflict of the
	// DB instance, whose key cannot change.
	reads := func() int { return h.calls("S3")["GetBucketEncryption"] + h.calls("DynamoDB")["DescribeTable"] }
	from, deadline := reads(), time.Now().Add(kubetest.Timeout)
	for reads() < from+6 {
		if time.Now().After(deadline) {
			t.Fatalf("the bucket and the table were not read again within %s", kubetest.Timeout)
		}
		h.resync(bucket)
		h.resync(table)
		h.resync(aliased)
		time.Sleep(300 * time.Millisecond)
	}
	for service, op := range map[string]string{"S3": "PutBucketEncryption", "DynamoDB": "UpdateTable", "RDS": "ModifyDBInstance"} {
		want := 0
		if op == "PutBucketEncryption" {
			want = 1 // at creation
		}
		if n := h.calls(service)[op]; n != want {
			t.Errorf("%s %s was called %d times, want %d: the key AWS reports differs from the reference's", service, op, n, want)
		}
	}
}
