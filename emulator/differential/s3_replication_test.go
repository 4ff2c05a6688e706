package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// replicationSteps is the replication and access logging sequence both sides run, what the
// S3Bucket kind relies on: replication refused while the source is not versioned, into a
// bucket that does not exist, and into one that is not versioned; a configuration of the
// current schema (filter, priority, delete marker replication) read back as it was put;
// deleted, then read as none; logging into a bucket that does not exist refused, into one
// whose policy does not let the logging service write refused, then, with the statement the
// operator writes, read back, and turned off with an empty status.
func replicationSteps() []step[*s3.Client] {
	ctx := context.Background()
	source, dest := aws.String("diff-repl-source"), aws.String("diff-repl-dest")
	version := func(bucket *string) func(c *s3.Client) outcome {
		return func(c *s3.Client) outcome {
			_, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{Bucket: bucket,
				VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}})
			return observe(err, nil)
		}
	}
	replicate := func(destination string) func(c *s3.Client) outcome {
		return func(c *s3.Client) outcome {
			_, err := c.PutBucketReplication(ctx, &s3.PutBucketReplicationInput{Bucket: source, ReplicationConfiguration: &types.ReplicationConfiguration{
				Role: aws.String("arn:aws:iam::123456789012:role/replication"),
				Rules: []types.ReplicationRule{{ID: aws.String("reports"), Priority: aws.Int32(2), Status: types.ReplicationRuleStatusEnabled,
					Filter: &types.ReplicationRuleFilter{And: &types.ReplicationRuleAndOperator{Prefix: aws.String("reports/"),
						Tags: []types.Tag{{Key: aws.String("class"), Value: aws.String("finance")}}}},
					DeleteMarkerReplication: &types.DeleteMarkerReplication{Status: types.DeleteMarkerReplicationStatusDisabled},
					Destination:             &types.Destination{Bucket: aws.String("arn:aws:s3:::" + destination), StorageClass: types.StorageClassStandardIa}}}}})
			return observe(err, nil)
		}
	}
	readReplication := func(c *s3.Client) outcome {
		out, err := c.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: source})
		if err != nil {
			return observe(err, nil)
		}
		fields := map[string]string{"role": aws.ToString(out.ReplicationConfiguration.Role), "rules": fmt.Sprint(len(out.ReplicationConfiguration.Rules))}
		for _, r := range out.ReplicationConfiguration.Rules {
			fields["id"], fields["priority"], fields["status"] = aws.ToString(r.ID), fmt.Sprint(aws.ToInt32(r.Priority)), string(r.Status)
			if f := r.Filter; f != nil && f.And != nil {
				fields["prefix"], fields["tags"] = aws.ToString(f.And.Prefix), fmt.Sprint(len(f.And.Tags))
			}
			if m := r.DeleteMarkerReplication; m != nil {
				fields["deleteMarkers"] = string(m.Status)
			}
			if d := r.Destination; d != nil {
				fields["destination"], fields["storageClass"] = aws.ToString(d.Bucket), string(d.StorageClass)
			}
		}
		return observe(nil, fields)
	}
	logTo := func(target *string) func(c *s3.Client) outcome {
		return func(c *s3.Client) outcome {
			status := &types.BucketLoggingStatus{}
			if target != nil {
				status.LoggingEnabled = &types.LoggingEnabled{TargetBucket: target, TargetPrefix: aws.String("source/")}
			}
			_, err := c.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: source, BucketLoggingStatus: status})
			if err != nil {
				return observe(err, nil)
			}
			out, err := c.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: source})
			if err != nil || out.LoggingEnabled == nil {
				return observe(err, map[string]string{"target": ""})
			}
			return observe(nil, map[string]string{"target": aws.ToString(out.LoggingEnabled.TargetBucket) + "/" + aws.ToString(out.LoggingEnabled.TargetPrefix)})
		}
	}
	return []step[*s3.Client]{
		{"CreateSource", func(c *s3.Client) outcome {
			_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: source})
			return observe(err, nil)
		}},
		{"ReplicateUnversionedSource", replicate("diff-repl-dest")},
		{"VersionSource", version(source)},
		{"ReplicateMissingDestination", replicate("diff-repl-dest")},
		{"CreateDestination", func(c *s3.Client) outcome {
			_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: dest})
			return observe(err, nil)
		}},
		{"ReplicateUnversionedDestination", replicate("diff-repl-dest")},
		{"VersionDestination", version(dest)},
		{"Replicate", replicate("diff-repl-dest")},
		{"GetReplication", readReplication},
		{"DeleteReplication", func(c *s3.Client) outcome {
			_, err := c.DeleteBucketReplication(ctx, &s3.DeleteBucketReplicationInput{Bucket: source})
			return observe(err, nil)
		}},
		{"GetDeletedReplication", readReplication},
		{"LogToMissingBucket", logTo(aws.String("diff-repl-missing"))},
		{"LogWithoutGrant", logTo(dest)},
		// The statement the operator writes, but for aws:SourceAccount: the two sides' accounts
		// differ.
		{"GrantLogDelivery", func(c *s3.Client) outcome {
			_, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: dest, Policy: aws.String(`{"Version":"2012-10-17","Statement":[{` +
				`"Sid":"InfraOperatorLogging","Effect":"Allow","Principal":{"Service":"logging.s3.amazonaws.com"},"Action":"s3:PutObject",` +
				`"Resource":"arn:aws:s3:::diff-repl-dest/source/*","Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:s3:::diff-repl-source"}}}]}`)})
			return observe(err, nil)
		}},
		{"LogToDestination", logTo(dest)},
		{"LoggingOff", logTo(nil)},
	}
}

// TestS3ReplicationAgainstMoto runs the replication and logging sequence against the emulator
// and moto.
func TestS3ReplicationAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *s3.Client {
		return s3.NewFromConfig(sdkConfig(t, url), func(o *s3.Options) { o.UsePathStyle = true })
	}
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, replicationSteps(), map[string]string{
		"ReplicateMissingDestination": "moto stores a rule whose destination bucket does not exist; AWS requires the destination to exist " +
			"(InvalidRequest, Destination bucket must exist)",
		"ReplicateUnversionedDestination": "moto stores a rule whose destination bucket is not versioned; AWS requires versioning enabled " +
			"on the destination as on the source (InvalidRequest, Destination bucket must have versioning enabled)",
		"GetReplication": "moto drops a rule's And filter (its prefix and tags) from what it returns; AWS returns the filter as it was put",
	})
}
