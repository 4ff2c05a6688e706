package s3

import (
	"encoding/json"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// withBucket runs f on the caller's bucket under the backend's lock.
func (b *Backend) withBucket(call *core.Call, name *string, f func(*bucket) error) error {
	err := func() error {
		b.mu.Lock()
		defer b.mu.Unlock()
		bk, err := b.bucketFor(call, name)
		if err != nil {
			return err
		}
		return f(bk)
	}()
	b.flush()
	return err
}

// readBucket runs f on the caller's bucket name names, holding the backend's lock, and returns
// f's answer or the bucket's error.
func readBucket[O any](b *Backend, call *core.Call, name *string, f func(*bucket) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*bucket, error) { return b.bucketFor(call, name) }, f)
}

// absent returns the 404 error code and msg of a Get operation when its bucket has no such
// configuration (unset), and nil otherwise.
func absent(unset bool, code, msg string) error {
	if unset {
		return missing(code, msg)
	}
	return nil
}

func missing(code, msg string) *core.APIError {
	return &core.APIError{Code: code, Status: http.StatusNotFound, Message: msg}
}

func malformedXML() *core.APIError {
	return core.Errorf("MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema")
}

func (b *Backend) putBucketVersioning(call *core.Call, in *s3.PutBucketVersioningInput) (*s3.PutBucketVersioningOutput, error) {
	return &s3.PutBucketVersioningOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.VersioningConfiguration == nil {
			return malformedXML()
		}
		switch s := in.VersioningConfiguration.Status; s {
		case types.BucketVersioningStatusEnabled, types.BucketVersioningStatusSuspended:
			if bk.objectLock != nil && s != types.BucketVersioningStatusEnabled {
				return core.Errorf("InvalidBucketState", "An Object Lock configuration is present on this bucket, so the versioning state cannot be changed.")
			}
			bk.versioning = s
			return nil
		}
		return malformedXML()
	})
}

func (b *Backend) getBucketVersioning(call *core.Call, in *s3.GetBucketVersioningInput) (*s3.GetBucketVersioningOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketVersioningOutput, error) {
		return &s3.GetBucketVersioningOutput{Status: bk.versioning}, nil
	})
}

// defaultEncryption is what AWS applies to every bucket since January 2023: SSE-S3.
func defaultEncryption() *types.ServerSideEncryptionConfiguration {
	return &types.ServerSideEncryptionConfiguration{Rules: []types.ServerSideEncryptionRule{{
		ApplyServerSideEncryptionByDefault: &types.ServerSideEncryptionByDefault{SSEAlgorithm: types.ServerSideEncryptionAes256},
		BucketKeyEnabled:                   aws.Bool(false),
	}}}
}

func (b *Backend) putBucketEncryption(call *core.Call, in *s3.PutBucketEncryptionInput) (*s3.PutBucketEncryptionOutput, error) {
	return &s3.PutBucketEncryptionOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		c := in.ServerSideEncryptionConfiguration
		if c == nil || len(c.Rules) != 1 || c.Rules[0].ApplyServerSideEncryptionByDefault == nil {
			return malformedXML()
		}
		d := c.Rules[0].ApplyServerSideEncryptionByDefault
		switch d.SSEAlgorithm {
		case types.ServerSideEncryptionAes256:
			if d.KMSMasterKeyID != nil {
				return core.Errorf("InvalidArgument", "a KMSMasterKeyID is not applicable if the default sse algorithm is not aws:kms or aws:kms:dsse")
			}
		case types.ServerSideEncryptionAwsKms, types.ServerSideEncryptionAwsKmsDsse:
		default:
			return malformedXML()
		}
		bk.encryption = c
		return nil
	})
}

func (b *Backend) getBucketEncryption(call *core.Call, in *s3.GetBucketEncryptionInput) (*s3.GetBucketEncryptionOutput, error) {
	out := &s3.GetBucketEncryptionOutput{}
	return out, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		out.ServerSideEncryptionConfiguration = bk.encryption
		if out.ServerSideEncryptionConfiguration == nil {
			out.ServerSideEncryptionConfiguration = defaultEncryption()
		}
		return nil
	})
}

func (b *Backend) deleteBucketEncryption(call *core.Call, in *s3.DeleteBucketEncryptionInput) (*s3.DeleteBucketEncryptionOutput, error) {
	return &s3.DeleteBucketEncryptionOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.encryption = nil; return nil })
}

func (b *Backend) putBucketLifecycle(call *core.Call, in *s3.PutBucketLifecycleConfigurationInput) (*s3.PutBucketLifecycleConfigurationOutput, error) {
	return &s3.PutBucketLifecycleConfigurationOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.LifecycleConfiguration == nil || len(in.LifecycleConfiguration.Rules) == 0 || len(in.LifecycleConfiguration.Rules) > 1000 {
			return malformedXML()
		}
		ids := map[string]bool{}
		for _, r := range in.LifecycleConfiguration.Rules {
			if r.Status != types.ExpirationStatusEnabled && r.Status != types.ExpirationStatusDisabled {
				return malformedXML()
			}
			if id := aws.ToString(r.ID); len(id) > 255 || (id != "" && ids[id]) {
				return core.Errorf("InvalidArgument", "Rule ID must be unique and at most 255 characters. Found same ID for more than one rule or a longer ID")
			} else {
				ids[id] = true
			}
			if r.Expiration == nil && len(r.Transitions) == 0 && r.NoncurrentVersionExpiration == nil &&
				len(r.NoncurrentVersionTransitions) == 0 && r.AbortIncompleteMultipartUpload == nil {
				return core.Errorf("InvalidRequest", "At least one action needs to be specified in a rule")
			}
		}
		bk.lifecycle = in.LifecycleConfiguration.Rules
		return nil
	})
}

func (b *Backend) getBucketLifecycle(call *core.Call, in *s3.GetBucketLifecycleConfigurationInput) (*s3.GetBucketLifecycleConfigurationOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketLifecycleConfigurationOutput, error) {
		return &s3.GetBucketLifecycleConfigurationOutput{Rules: bk.lifecycle}, absent(bk.lifecycle == nil, "NoSuchLifecycleConfiguration", "The lifecycle configuration does not exist")
	})
}

func (b *Backend) deleteBucketLifecycle(call *core.Call, in *s3.DeleteBucketLifecycleInput) (*s3.DeleteBucketLifecycleOutput, error) {
	return &s3.DeleteBucketLifecycleOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.lifecycle = nil; return nil })
}

var corsMethods = map[string]bool{"GET": true, "PUT": true, "POST": true, "DELETE": true, "HEAD": true}

func (b *Backend) putBucketCors(call *core.Call, in *s3.PutBucketCorsInput) (*s3.PutBucketCorsOutput, error) {
	return &s3.PutBucketCorsOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.CORSConfiguration == nil || len(in.CORSConfiguration.CORSRules) == 0 || len(in.CORSConfiguration.CORSRules) > 100 {
			return malformedXML()
		}
		for _, r := range in.CORSConfiguration.CORSRules {
			if len(r.AllowedMethods) == 0 || len(r.AllowedOrigins) == 0 {
				return malformedXML()
			}
			for _, m := range r.AllowedMethods {
				if !corsMethods[m] {
					return core.Errorf("InvalidRequest", "Found unsupported HTTP method in CORS config. Unsupported method is %s", m)
				}
			}
		}
		bk.cors = in.CORSConfiguration.CORSRules
		return nil
	})
}

func (b *Backend) getBucketCors(call *core.Call, in *s3.GetBucketCorsInput) (*s3.GetBucketCorsOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketCorsOutput, error) {
		return &s3.GetBucketCorsOutput{CORSRules: bk.cors}, absent(bk.cors == nil, "NoSuchCORSConfiguration", "The CORS configuration does not exist")
	})
}

func (b *Backend) deleteBucketCors(call *core.Call, in *s3.DeleteBucketCorsInput) (*s3.DeleteBucketCorsOutput, error) {
	return &s3.DeleteBucketCorsOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.cors = nil; return nil })
}

func (b *Backend) putPublicAccessBlock(call *core.Call, in *s3.PutPublicAccessBlockInput) (*s3.PutPublicAccessBlockOutput, error) {
	return &s3.PutPublicAccessBlockOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.PublicAccessBlockConfiguration == nil {
			return malformedXML()
		}
		c := *in.PublicAccessBlockConfiguration
		for _, v := range []**bool{&c.BlockPublicAcls, &c.IgnorePublicAcls, &c.BlockPublicPolicy, &c.RestrictPublicBuckets} {
			if *v == nil {
				*v = aws.Bool(false)
			}
		}
		bk.publicAccess = &c
		return nil
	})
}

func (b *Backend) getPublicAccessBlock(call *core.Call, in *s3.GetPublicAccessBlockInput) (*s3.GetPublicAccessBlockOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetPublicAccessBlockOutput, error) {
		return &s3.GetPublicAccessBlockOutput{PublicAccessBlockConfiguration: bk.publicAccess}, absent(bk.publicAccess == nil, "NoSuchPublicAccessBlockConfiguration", "The public access block configuration was not found")
	})
}

func (b *Backend) deletePublicAccessBlock(call *core.Call, in *s3.DeletePublicAccessBlockInput) (*s3.DeletePublicAccessBlockOutput, error) {
	return &s3.DeletePublicAccessBlockOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.publicAccess = nil; return nil })
}

func (b *Backend) putOwnershipControls(call *core.Call, in *s3.PutBucketOwnershipControlsInput) (*s3.PutBucketOwnershipControlsOutput, error) {
	return &s3.PutBucketOwnershipControlsOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		if in.OwnershipControls == nil || len(in.OwnershipControls.Rules) != 1 {
			return malformedXML()
		}
		switch in.OwnershipControls.Rules[0].ObjectOwnership {
		case types.ObjectOwnershipBucketOwnerEnforced, types.ObjectOwnershipBucketOwnerPreferred, types.ObjectOwnershipObjectWriter:
		default:
			return malformedXML()
		}
		bk.ownership = in.OwnershipControls
		return nil
	})
}

func (b *Backend) getOwnershipControls(call *core.Call, in *s3.GetBucketOwnershipControlsInput) (*s3.GetBucketOwnershipControlsOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketOwnershipControlsOutput, error) {
		return &s3.GetBucketOwnershipControlsOutput{OwnershipControls: bk.ownership}, absent(bk.ownership == nil, "OwnershipControlsNotFoundError", "The bucket ownership controls were not found")
	})
}

func (b *Backend) deleteOwnershipControls(call *core.Call, in *s3.DeleteBucketOwnershipControlsInput) (*s3.DeleteBucketOwnershipControlsOutput, error) {
	return &s3.DeleteBucketOwnershipControlsOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.ownership = nil; return nil })
}

func (b *Backend) putBucketPolicy(call *core.Call, in *s3.PutBucketPolicyInput) (*s3.PutBucketPolicyOutput, error) {
	return &s3.PutBucketPolicyOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error {
		var doc struct {
			Statement json.RawMessage
		}
		if err := json.Unmarshal([]byte(aws.ToString(in.Policy)), &doc); err != nil || len(doc.Statement) == 0 {
			return core.Errorf("MalformedPolicy", "Policies must be valid JSON and the first byte must be '{'")
		}
		if bk.publicAccess != nil && aws.ToBool(bk.publicAccess.BlockPublicPolicy) && core.PublicPolicy(aws.ToString(in.Policy)) {
			return &core.APIError{Code: "AccessDenied", Status: http.StatusForbidden,
				Message: "User is not authorized to perform: s3:PutBucketPolicy because public policies are blocked by the BlockPublicPolicy block public access setting."}
		}
		bk.policy = aws.ToString(in.Policy)
		return nil
	})
}

func (b *Backend) getBucketPolicy(call *core.Call, in *s3.GetBucketPolicyInput) (*s3.GetBucketPolicyOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketPolicyOutput, error) {
		return &s3.GetBucketPolicyOutput{Policy: aws.String(bk.policy)}, absent(bk.policy == "", "NoSuchBucketPolicy", "The bucket policy does not exist")
	})
}

func (b *Backend) deleteBucketPolicy(call *core.Call, in *s3.DeleteBucketPolicyInput) (*s3.DeleteBucketPolicyOutput, error) {
	return &s3.DeleteBucketPolicyOutput{}, b.withBucket(call, in.Bucket, func(bk *bucket) error { bk.policy = ""; return nil })
}

// getBucketPolicyStatus tells whether the bucket's policy makes it public, or answers
// NoSuchBucketPolicy (404) for a bucket without a policy, as AWS does. The policy is public
// as core.PublicPolicy decides it (a simplification of AWS's analysis).
func (b *Backend) getBucketPolicyStatus(call *core.Call, in *s3.GetBucketPolicyStatusInput) (*s3.GetBucketPolicyStatusOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketPolicyStatusOutput, error) {
		return &s3.GetBucketPolicyStatusOutput{PolicyStatus: &types.PolicyStatus{IsPublic: aws.Bool(core.PublicPolicy(bk.policy))}}, absent(bk.policy == "", "NoSuchBucketPolicy", "The bucket policy does not exist")
	})
}
