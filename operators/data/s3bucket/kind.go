// Package s3bucket manages S3 buckets for the S3Bucket kind.
package s3bucket

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the S3Bucket kind to the engine.
func Kind() managed.Kind[*v1alpha1.S3Bucket, State] {
	return managed.Kind[*v1alpha1.S3Bucket, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.S3Bucket]{
			managed.One(targets.KMSKey, "spec.encryption.kmsKeyRef", func(b *v1alpha1.S3Bucket) (*shared.Reference, *string) {
				if e := b.Spec.Encryption; e != nil {
					return e.KMSKeyRef, &e.KMSKeyID
				}
				return nil, nil
			}),
		},
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.S3Bucket) managed.Driver[*v1alpha1.S3Bucket, State] {
			// A custom endpoint (the emulator, LocalStack) has no per-bucket host names.
			pathStyle := s.Provider.ProviderSpec().Endpoint != ""
			api := provider.Client(s, "s3", func(c aws.Config) *s3.Client {
				return s3.NewFromConfig(c, func(o *s3.Options) { o.UsePathStyle = pathStyle })
			})
			return &driver{api: api, region: s.Config.Region}
		},
	}
}

// validate checks what admission cannot: the policy is a JSON policy document without
// statements of the Sid prefix reserved for the statements other objects grant in it.
func validate(b *v1alpha1.S3Bucket) error {
	doc, err := policy.Parse(b.Spec.Policy)
	if err != nil {
		return managed.Wrap(err, "spec.policy")
	}
	if len(doc.Reserved(policy.ReservedSidPrefix)) > 0 {
		return fmt.Errorf("spec.policy: statement ids starting with %s are reserved for the statements other objects (a CloudFrontDistribution) add; rename the statement", policy.ReservedSidPrefix)
	}
	return nil
}

// driver manages one provider's S3 buckets.
type driver struct {
	api *s3.Client
	// region is the provider's region, where buckets are created.
	region string
}
