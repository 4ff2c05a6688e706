// Package dynamodbtable manages DynamoDB tables for the DynamoDBTable kind.
package dynamodbtable

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the DynamoDBTable kind to the engine.
func Kind() managed.Kind[*v1alpha1.DynamoDBTable, State] {
	return managed.Kind[*v1alpha1.DynamoDBTable, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.DynamoDBTable]{
			managed.One(targets.KMSKey, "spec.serverSideEncryption.kmsKeyRef", func(t *v1alpha1.DynamoDBTable) (*shared.Reference, *string) {
				if e := t.Spec.ServerSideEncryption; e != nil {
					return e.KMSKeyRef, &e.KMSKeyID
				}
				return nil, nil
			}),
		},
		// A table is CREATING for seconds in AWS (2s in the emulator).
		ReadyIn: time.Second,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.DynamoDBTable) managed.Driver[*v1alpha1.DynamoDBTable, State] {
			return &driver{
				api:  provider.Client(s, "dynamodb", func(c aws.Config) *dynamodb.Client { return dynamodb.NewFromConfig(c) }),
				keys: provider.Client(s, "kms", func(c aws.Config) *kms.Client { return kms.NewFromConfig(c) }),
			}
		},
	}
}

// validate checks what admission cannot: every key type is S, N or B, and an attribute used
// by several keys has one type.
func validate(t *v1alpha1.DynamoDBTable) error {
	types := map[string]v1alpha1.DynamoDBAttributeType{}
	for _, a := range keyAttributes(&t.Spec) {
		if !a.Type.Valid() {
			return fmt.Errorf("attribute %q has type %q; a key type is S, N or B", a.Name, a.Type)
		}
		if prev, ok := types[a.Name]; ok && prev != a.Type {
			return fmt.Errorf("attribute %q is used as a key with types %s and %s; a key attribute has one type", a.Name, prev, a.Type)
		}
		types[a.Name] = a.Type
	}
	return nil
}

// keyAttributes returns every key attribute of the table and its indexes, in spec order.
func keyAttributes(s *v1alpha1.DynamoDBTableSpec) []v1alpha1.DynamoDBAttribute {
	attrs := []v1alpha1.DynamoDBAttribute{s.HashKey}
	if s.RangeKey != nil {
		attrs = append(attrs, *s.RangeKey)
	}
	for _, g := range s.GlobalSecondaryIndexes {
		attrs = append(attrs, g.HashKey)
		if g.RangeKey != nil {
			attrs = append(attrs, *g.RangeKey)
		}
	}
	for _, l := range s.LocalSecondaryIndexes {
		attrs = append(attrs, l.RangeKey)
	}
	return attrs
}

// driver manages one provider's DynamoDB tables.
type driver struct {
	api *dynamodb.Client
	// keys finds the key an alias of the spec's encryption points at.
	keys keyAPI
}

// keyAPI is the KMS call the driver makes.
type keyAPI interface {
	DescribeKey(ctx context.Context, in *kms.DescribeKeyInput, opts ...func(*kms.Options)) (*kms.DescribeKeyOutput, error)
}

var _ keyAPI = (*kms.Client)(nil)
