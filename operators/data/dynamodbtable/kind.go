// Package dynamodbtable manages DynamoDB tables for the DynamoDBTable kind.
package dynamodbtable

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the DynamoDBTable kind to the engine.
func Kind() managed.Kind[*v1alpha1.DynamoDBTable, State] {
	return managed.Kind[*v1alpha1.DynamoDBTable, State]{
		Validate: validate,
		// A table is CREATING for seconds in AWS (2s in the emulator).
		FirstLook: time.Second,
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.DynamoDBTable, State] {
			return &driver{api: provider.Client(s, "dynamodb", func(c aws.Config) *dynamodb.Client { return dynamodb.NewFromConfig(c) })}
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
}
