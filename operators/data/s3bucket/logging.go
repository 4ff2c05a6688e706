package s3bucket

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// loggingPermissionField names, in plans, the statement the bucket keeps in the policy of the
// bucket its access logs go to.
const loggingPermissionField = "loggingPermission"

// logging is a server access logging configuration in a form both the spec and S3's answer
// convert to: the target bucket's name and the prefix of the log objects.
type logging struct {
	Target, Prefix string
}

// desiredLogging returns the spec's logging configuration, its reference resolved into its
// name field, or nil for none.
func desiredLogging(s *v1alpha1.S3BucketSpec) *logging {
	if s.Logging == nil {
		return nil
	}
	return &logging{Target: s.Logging.TargetBucketName, Prefix: s.Logging.TargetPrefix}
}

// observedLogging returns the logging configuration of out, or nil for none; with complete
// false when it holds what the spec cannot express (grants, date-partitioned keys), so that it
// differs from every spec. The simple key format is S3's default, the spec's.
func observedLogging(out *s3.GetBucketLoggingOutput) (l *logging, complete bool) {
	e := out.LoggingEnabled
	if e == nil {
		return nil, true
	}
	partitioned := e.TargetObjectKeyFormat != nil && e.TargetObjectKeyFormat.PartitionedPrefix != nil
	return &logging{Target: aws.ToString(e.TargetBucket), Prefix: aws.ToString(e.TargetPrefix)}, len(e.TargetGrants) == 0 && !partitioned
}

// targetHolder returns the holder of the policy of the bucket named target, in partition,
// where the bucket with sourceARN keeps st: its policy read with GetBucketPolicy and written
// with PutBucketPolicy (DeleteBucketPolicy when nothing is left), its tags read with
// GetBucketTagging. st needs only its Sid to be removed.
func (d *driver) targetHolder(target, partition string, st map[string]any) holder {
	arn := "arn:" + partition + ":s3:::" + target
	return holder{what: "S3 bucket", arn: arn, by: "spec.logging", field: loggingPermissionField, statement: st,
		read: func(ctx context.Context) (policy.Document, bool, bool, error) {
			out, err := d.api.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: aws.String(target)})
			switch {
			case awserr.Code(err) == "NoSuchBucketPolicy":
				return policy.Document{}, true, true, nil
			case err == nil:
				// A policy that is not JSON grants the logging service nothing; the statement
				// replaces it.
				doc, _ := policy.Parse(aws.ToString(out.Policy))
				return doc, true, true, nil
			case awserr.IsNotFound(err):
				return policy.Document{}, false, true, nil
			case awserr.Classify(err) == awserr.ClassAccessDenied:
				return policy.Document{}, true, false, nil
			}
			return policy.Document{}, false, false, fmt.Errorf("get the policy of bucket %s: %w", target, err)
		},
		write: func(ctx context.Context, doc policy.Document) error {
			if text := doc.String(); text != "" {
				_, err := d.api.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String(target), Policy: aws.String(text)})
				return managed.Wrap(err, "put the policy of bucket %s", target)
			}
			_, err := d.api.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: aws.String(target)})
			return managed.Wrap(err, "delete the policy of bucket %s", target)
		},
		tags: func(ctx context.Context) (map[string]string, error) { return d.bucketTags(ctx, target) },
	}
}

// bucketTags returns the tags of the bucket named name: none for a bucket without a tag set,
// and none either for one the credentials may not read (another account's), which
// managed.CheckForeignWrite then takes as made outside the operator.
func (d *driver) bucketTags(ctx context.Context, name string) (map[string]string, error) {
	out, err := d.api.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: aws.String(name)})
	switch {
	case err == nil:
		return managed.TagMap(out.TagSet, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
	case awserr.Code(err) == "NoSuchTagSet", awserr.Classify(err) == awserr.ClassAccessDenied:
		return map[string]string{}, nil
	}
	return nil, fmt.Errorf("get tagging of bucket %s: %w", name, err)
}

// planLogging plans the server access logging of the bucket in st: first the statement that
// lets the logging service write into the target bucket (see grant: the target must be one an
// object of this namespace made), then one PutBucketLogging when the configuration differs
// from st's (an empty status when the spec has none), then the removal of the statement from
// a target the bucket no longer logs into. A bucket that only observes compares the
// configuration and looks at no target.
func (d *driver) planLogging(ctx context.Context, p *managed.Plan, b *v1alpha1.S3Bucket, st *State, observeOnly bool) error {
	want, got, partition := desiredLogging(&b.Spec), st.Logging, provider.Partition(st.Region)
	source := bucketARN(st)
	if want != nil && !observeOnly {
		account, err := d.account(ctx)
		if err != nil {
			return err
		}
		h := d.targetHolder(want.Target, partition, policy.LogDeliveryStatement(source, account, "arn:"+partition+":s3:::"+want.Target, want.Prefix))
		if err := grant(ctx, p, b, h); err != nil {
			return err
		}
	}
	if !st.LoggingComplete || (want == nil) != (got == nil) || want != nil && *want != *got {
		p.Add("logging", func(ctx context.Context) error {
			status := &types.BucketLoggingStatus{}
			if want != nil {
				status.LoggingEnabled = &types.LoggingEnabled{TargetBucket: aws.String(want.Target), TargetPrefix: aws.String(want.Prefix)}
			}
			_, err := d.api.PutBucketLogging(ctx, &s3.PutBucketLoggingInput{Bucket: aws.String(st.Name), BucketLoggingStatus: status})
			return managed.Wrap(err, "put logging of bucket %s", st.Name)
		})
	}
	if got != nil && !observeOnly && (want == nil || want.Target != got.Target) {
		h := d.targetHolder(got.Target, partition, map[string]any{"Sid": policy.LogDeliverySid(source)})
		p.Add(loggingPermissionField, func(ctx context.Context) error { return revoke(ctx, b, h) })
	}
	return nil
}

// revokeLogging removes the logging statement of the bucket in st from the policy of the
// bucket its access logs go to, when the bucket is deleted.
func (d *driver) revokeLogging(ctx context.Context, b *v1alpha1.S3Bucket, st *State) error {
	out, err := d.api.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: aws.String(st.Name)})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get logging of bucket %s: %w", st.Name, err)
	}
	got, _ := observedLogging(out)
	if got == nil {
		return nil
	}
	return revoke(ctx, b, d.targetHolder(got.Target, provider.Partition(st.Region), map[string]any{"Sid": policy.LogDeliverySid(bucketARN(st))}))
}
