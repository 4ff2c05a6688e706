package s3bucket

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// State is what AWS said about a bucket. The optional settings are read only when the spec
// manages them.
type State struct {
	// Name is the bucket's name.
	Name string
	// Region is the region the bucket lives in.
	Region string
	// Tags are the bucket's tags.
	Tags map[string]string
	// Lifecycle are the lifecycle rules; none when the bucket has no lifecycle configuration.
	Lifecycle []types.LifecycleRule
	// CORS are the CORS rules; none when the bucket has no CORS configuration.
	CORS []types.CORSRule
	// Policy is the bucket policy; empty when the bucket has none.
	Policy string
	// Versioning is the versioning status; empty for a bucket that was never versioned.
	Versioning types.BucketVersioningStatus
	// Encryption is the default encryption rule, or nil.
	Encryption *types.ServerSideEncryptionRule
	// PublicAccessBlock is the public access block, or nil.
	PublicAccessBlock *types.PublicAccessBlockConfiguration
	// ObjectOwnership is the object ownership setting, or empty.
	ObjectOwnership types.ObjectOwnership
	// Notifications are the event notification configurations; none when the bucket has none.
	Notifications []notification
	// EventBridge is whether the bucket sends its events to EventBridge too.
	EventBridge bool
	// Replication is the replication configuration, or nil; ReplicationComplete is false when
	// it holds what the spec cannot express.
	Replication         *replication
	ReplicationComplete bool
	// Logging is the server access logging configuration, or nil; LoggingComplete is false
	// when it holds what the spec cannot express.
	Logging         *logging
	LoggingComplete bool
}

// Observe reads the bucket (HeadBucket and GetBucketTagging, then, unless it is being
// deleted, its configuration: see readConfiguration), fills the status and plans the changes
// that make it match the spec, with what the destinations of its event notifications need to
// accept S3's events (see planNotifications), its replication (planReplication) and its access
// logging (planLogging). A bucket is ready as soon as it exists: the engine applies the
// plan before it calls a managed bucket Ready, and a bucket that differs from the spec under
// driftPolicy Report or managementPolicy ObserveOnly is still usable.
func (d *driver) Observe(ctx context.Context, b *v1alpha1.S3Bucket, req managed.Request) (managed.Observation[State], error) {
	name := cmp.Or(managed.ExternalName(b), b.Spec.BucketName)
	head, err := d.api.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(name)})
	var httpErr *smithyhttp.ResponseError
	switch {
	case awserr.IsNotFound(err):
		return managed.Observation[State]{}, nil
	case errors.As(err, &httpErr) && httpErr.HTTPStatusCode() == http.StatusForbidden:
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonAlreadyExists, "S3 bucket %s exists and this provider's credentials may not use it: "+
			"bucket names are global, so another AWS account most likely owns it (or the credentials lack s3:ListBucket on it); choose another bucketName", name)
	case err != nil:
		return managed.Observation[State]{}, fmt.Errorf("head bucket %s: %w", name, err)
	}
	st := &State{Name: name, Region: cmp.Or(aws.ToString(head.BucketRegion), d.region), Tags: map[string]string{}}
	switch out, err := d.api.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: aws.String(name)}); {
	case err == nil:
		st.Tags = managed.TagMap(out.TagSet, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	case awserr.Code(err) != "NoSuchTagSet": // A bucket without a tag set has none.
		return managed.Observation[State]{}, fmt.Errorf("get tagging of bucket %s: %w", name, err)
	}
	if err := managed.Claim(b, "S3 bucket", name, st.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	obs := managed.Observation[State]{Exists: true, State: st, Tags: st.Tags}
	if !req.Deleting {
		if err := d.readConfiguration(ctx, &b.Spec, st); err != nil {
			return managed.Observation[State]{}, err
		}
		obs.Changes = d.compare(b, st, req.Tags)
		if err := d.planNotifications(ctx, &obs.Changes, b, st, bucketARN(st)); err != nil {
			return managed.Observation[State]{}, err
		}
		observeOnly := b.Spec.ManagementPolicy == shared.ManagementPolicyObserveOnly
		if err := d.planReplication(ctx, &obs.Changes, b, st, observeOnly); err != nil {
			return managed.Observation[State]{}, err
		}
		if err := d.planLogging(ctx, &obs.Changes, b, st, observeOnly); err != nil {
			return managed.Observation[State]{}, err
		}
		obs.Ready = true
	}
	b.Status.BucketName, b.Status.Region = name, st.Region
	b.Status.ARN = bucketARN(st)
	b.Status.BucketDomainName = domainName(name, st.Region)
	b.Status.RegionalDomainName = name + ".s3." + st.Region + "." + dnsSuffix(st.Region)
	return obs, nil
}

// bucketARN returns the ARN of the bucket st describes.
func bucketARN(st *State) string {
	return "arn:" + provider.Partition(st.Region) + ":s3:::" + st.Name
}

// readConfiguration reads the lifecycle rules, CORS rules, notification, replication and
// logging configurations and the policy into st, and the versioning, encryption, public access block and ownership controls
// only when the spec manages them. S3 answers a configuration that was never set with an error code of its own,
// which means none.
func (d *driver) readConfiguration(ctx context.Context, s *v1alpha1.S3BucketSpec, st *State) error {
	bucket := aws.String(st.Name)
	switch out, err := d.api.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: bucket}); {
	case err == nil:
		st.Lifecycle = out.Rules
	case awserr.Code(err) != "NoSuchLifecycleConfiguration":
		return fmt.Errorf("get lifecycle configuration of bucket %s: %w", st.Name, err)
	}
	switch out, err := d.api.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: bucket}); {
	case err == nil:
		st.CORS = out.CORSRules
	case awserr.Code(err) != "NoSuchCORSConfiguration":
		return fmt.Errorf("get CORS configuration of bucket %s: %w", st.Name, err)
	}
	out, err := d.api.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: bucket})
	if err != nil {
		return fmt.Errorf("get notification configuration of bucket %s: %w", st.Name, err)
	}
	st.Notifications, st.EventBridge = observedNotifications(out), out.EventBridgeConfiguration != nil
	switch out, err := d.api.GetBucketReplication(ctx, &s3.GetBucketReplicationInput{Bucket: bucket}); {
	case err == nil:
		st.Replication, st.ReplicationComplete = observedReplication(out.ReplicationConfiguration)
	case awserr.Code(err) == "ReplicationConfigurationNotFoundError":
		st.ReplicationComplete = true
	default:
		return fmt.Errorf("get replication configuration of bucket %s: %w", st.Name, err)
	}
	logs, err := d.api.GetBucketLogging(ctx, &s3.GetBucketLoggingInput{Bucket: bucket})
	if err != nil {
		return fmt.Errorf("get logging of bucket %s: %w", st.Name, err)
	}
	st.Logging, st.LoggingComplete = observedLogging(logs)
	switch out, err := d.api.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: bucket}); {
	case err == nil:
		st.Policy = aws.ToString(out.Policy)
	case awserr.Code(err) != "NoSuchBucketPolicy":
		return fmt.Errorf("get policy of bucket %s: %w", st.Name, err)
	}
	if s.Versioning != nil {
		out, err := d.api.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: bucket})
		if err != nil {
			return fmt.Errorf("get versioning of bucket %s: %w", st.Name, err)
		}
		st.Versioning = out.Status
	}
	if s.Encryption != nil {
		switch out, err := d.api.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: bucket}); {
		case err == nil:
			if c := out.ServerSideEncryptionConfiguration; c != nil && len(c.Rules) > 0 {
				st.Encryption = &c.Rules[0]
			}
		case awserr.Code(err) != "ServerSideEncryptionConfigurationNotFoundError":
			return fmt.Errorf("get encryption of bucket %s: %w", st.Name, err)
		}
	}
	if s.PublicAccessBlock != nil {
		switch out, err := d.api.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: bucket}); {
		case err == nil:
			st.PublicAccessBlock = out.PublicAccessBlockConfiguration
		case awserr.Code(err) != "NoSuchPublicAccessBlockConfiguration":
			return fmt.Errorf("get public access block of bucket %s: %w", st.Name, err)
		}
	}
	if s.ObjectOwnership != "" {
		switch out, err := d.api.GetBucketOwnershipControls(ctx, &s3.GetBucketOwnershipControlsInput{Bucket: bucket}); {
		case err == nil:
			if c := out.OwnershipControls; c != nil && len(c.Rules) > 0 {
				st.ObjectOwnership = c.Rules[0].ObjectOwnership
			}
		case awserr.Code(err) != "OwnershipControlsNotFoundError":
			return fmt.Errorf("get ownership controls of bucket %s: %w", st.Name, err)
		}
	}
	return nil
}

// domainName returns the bucket's virtual-hosted domain name: the legacy global endpoint in
// us-east-1, the regional endpoint elsewhere (bucket.s3.region.amazonaws.com), as AWS's
// virtual-hosted-style addressing documents them.
func domainName(bucket, region string) string {
	suffix := dnsSuffix(region)
	if region == "us-east-1" {
		return bucket + ".s3." + suffix
	}
	return bucket + ".s3." + region + "." + suffix
}

// dnsSuffix returns the DNS suffix of AWS endpoints in region's partition.
func dnsSuffix(region string) string {
	if provider.Partition(region) == "aws-cn" {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}
