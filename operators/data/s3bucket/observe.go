package s3bucket

import (
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
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
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
}

// Observe reads the bucket (HeadBucket and GetBucketTagging, then, unless it is being
// deleted, GetBucketLifecycleConfiguration, GetBucketCors and GetBucketPolicy, and the
// versioning, encryption, public access block and ownership controls only when the spec
// manages them), fills the status and plans the changes that make it match the spec. A
// bucket is ready when it matches the spec.
func (d *driver) Observe(ctx context.Context, b *v1alpha1.S3Bucket, req managed.Request) (managed.Observation[State], error) {
	name := managed.ExternalName(b)
	if name == "" {
		name = b.Spec.BucketName
	}
	head, err := d.api.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(name)})
	switch {
	case awserr.IsNotFound(err):
		return managed.Observation[State]{}, nil
	case httpStatus(err) == http.StatusForbidden:
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonAlreadyExists, "S3 bucket %s exists and this provider's credentials may not use it: "+
			"bucket names are global, so another AWS account most likely owns it (or the credentials lack s3:ListBucket on it); choose another bucketName", name)
	case err != nil:
		return managed.Observation[State]{}, fmt.Errorf("head bucket %s: %w", name, err)
	}
	st := &State{Name: name, Region: aws.ToString(head.BucketRegion)}
	if st.Region == "" {
		st.Region = d.region
	}
	if st.Tags, err = d.tags(ctx, name); err != nil {
		return managed.Observation[State]{}, err
	}
	if managed.ExternalName(b) == "" {
		if err := managed.Claim(b, "S3 bucket", name, st.Tags); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	obs := managed.Observation[State]{Exists: true, State: st, Tags: st.Tags}
	if !req.Deleting {
		if err := d.readConfiguration(ctx, &b.Spec, st); err != nil {
			return managed.Observation[State]{}, err
		}
		obs.Changes = d.compare(b, st, req.Tags)
		obs.Ready = obs.UpToDate()
	}
	fillStatus(b, st)
	return obs, nil
}

// httpStatus returns the HTTP status of a failed AWS call, or 0.
func httpStatus(err error) int {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// tags returns the bucket's tags; a bucket without a tag set has none.
func (d *driver) tags(ctx context.Context, name string) (map[string]string, error) {
	out, err := d.api.GetBucketTagging(ctx, &s3.GetBucketTaggingInput{Bucket: aws.String(name)})
	if awserr.Code(err) == "NoSuchTagSet" {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get tagging of bucket %s: %w", name, err)
	}
	return tagMap(out.TagSet), nil
}

// readConfiguration reads the sub-configurations the spec manages into st. S3 answers a
// configuration that was never set with an error code of its own, which means none.
func (d *driver) readConfiguration(ctx context.Context, s *v1alpha1.S3BucketSpec, st *State) error {
	bucket := aws.String(st.Name)
	lc, err := d.api.GetBucketLifecycleConfiguration(ctx, &s3.GetBucketLifecycleConfigurationInput{Bucket: bucket})
	if err := absent(err, "NoSuchLifecycleConfiguration"); err != nil {
		return fmt.Errorf("get lifecycle configuration of bucket %s: %w", st.Name, err)
	}
	if err == nil {
		st.Lifecycle = lc.Rules
	}
	cors, err := d.api.GetBucketCors(ctx, &s3.GetBucketCorsInput{Bucket: bucket})
	if err := absent(err, "NoSuchCORSConfiguration"); err != nil {
		return fmt.Errorf("get CORS configuration of bucket %s: %w", st.Name, err)
	}
	if err == nil {
		st.CORS = cors.CORSRules
	}
	policy, err := d.api.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: bucket})
	if err := absent(err, "NoSuchBucketPolicy"); err != nil {
		return fmt.Errorf("get policy of bucket %s: %w", st.Name, err)
	}
	if err == nil {
		st.Policy = aws.ToString(policy.Policy)
	}
	if s.Versioning != nil {
		out, err := d.api.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: bucket})
		if err != nil {
			return fmt.Errorf("get versioning of bucket %s: %w", st.Name, err)
		}
		st.Versioning = out.Status
	}
	if s.Encryption != nil {
		out, err := d.api.GetBucketEncryption(ctx, &s3.GetBucketEncryptionInput{Bucket: bucket})
		if err := absent(err, "ServerSideEncryptionConfigurationNotFoundError"); err != nil {
			return fmt.Errorf("get encryption of bucket %s: %w", st.Name, err)
		}
		if err == nil && out.ServerSideEncryptionConfiguration != nil && len(out.ServerSideEncryptionConfiguration.Rules) > 0 {
			st.Encryption = &out.ServerSideEncryptionConfiguration.Rules[0]
		}
	}
	if s.PublicAccessBlock != nil {
		out, err := d.api.GetPublicAccessBlock(ctx, &s3.GetPublicAccessBlockInput{Bucket: bucket})
		if err := absent(err, "NoSuchPublicAccessBlockConfiguration"); err != nil {
			return fmt.Errorf("get public access block of bucket %s: %w", st.Name, err)
		}
		if err == nil {
			st.PublicAccessBlock = out.PublicAccessBlockConfiguration
		}
	}
	if s.ObjectOwnership != "" {
		out, err := d.api.GetBucketOwnershipControls(ctx, &s3.GetBucketOwnershipControlsInput{Bucket: bucket})
		if err := absent(err, "OwnershipControlsNotFoundError"); err != nil {
			return fmt.Errorf("get ownership controls of bucket %s: %w", st.Name, err)
		}
		if err == nil && out.OwnershipControls != nil && len(out.OwnershipControls.Rules) > 0 {
			st.ObjectOwnership = out.OwnershipControls.Rules[0].ObjectOwnership
		}
	}
	return nil
}

// absent returns nil when err is nil or has the error code S3 gives a configuration that was
// never set, and err otherwise.
func absent(err error, code string) error {
	if err == nil || awserr.Code(err) == code {
		return nil
	}
	return err
}

// fillStatus copies what the status shows.
func fillStatus(b *v1alpha1.S3Bucket, st *State) {
	b.Status.BucketName = st.Name
	b.Status.Region = st.Region
	b.Status.ARN = "arn:" + partition(st.Region) + ":s3:::" + st.Name
	b.Status.BucketDomainName = domainName(st.Name, st.Region)
}
