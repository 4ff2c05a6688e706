package dynamodbtable

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// attributeDefinitions returns the definitions of attrs, each name once.
func attributeDefinitions(attrs []v1alpha1.DynamoDBAttribute) []types.AttributeDefinition {
	seen := map[string]bool{}
	var defs []types.AttributeDefinition
	for _, a := range attrs {
		if !seen[a.Name] {
			seen[a.Name] = true
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(a.Name), AttributeType: types.ScalarAttributeType(a.Type)})
		}
	}
	return defs
}

// keySchema returns the key schema of a partition key and an optional sort key.
func keySchema(hash v1alpha1.DynamoDBAttribute, rng *v1alpha1.DynamoDBAttribute) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash.Name), KeyType: types.KeyTypeHash}}
	if rng != nil {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng.Name), KeyType: types.KeyTypeRange})
	}
	return ks
}

// projection returns an index's projection; unset means ALL.
func projection(p *v1alpha1.DynamoDBProjection) *types.Projection {
	if p == nil || p.Type == "" {
		return &types.Projection{ProjectionType: types.ProjectionTypeAll}
	}
	out := &types.Projection{ProjectionType: types.ProjectionType(p.Type)}
	if len(p.NonKeyAttributes) > 0 {
		out.NonKeyAttributes = p.NonKeyAttributes
	}
	return out
}

// throughput returns provisioned throughput, or nil when either value is unset.
func throughput(read, write *int64) *types.ProvisionedThroughput {
	if read == nil || write == nil {
		return nil
	}
	return &types.ProvisionedThroughput{ReadCapacityUnits: read, WriteCapacityUnits: write}
}

// globalIndex returns the creation request of a global secondary index.
func globalIndex(g v1alpha1.DynamoDBGlobalSecondaryIndex) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{
		IndexName:             aws.String(g.IndexName),
		KeySchema:             keySchema(g.HashKey, g.RangeKey),
		Projection:            projection(g.Projection),
		ProvisionedThroughput: throughput(g.ReadCapacityUnits, g.WriteCapacityUnits),
	}
}

// streamSpecification returns the stream settings of the spec.
func streamSpecification(s *v1alpha1.DynamoDBStream) *types.StreamSpecification {
	out := &types.StreamSpecification{StreamEnabled: aws.Bool(s.Enabled)}
	if s.Enabled {
		out.StreamViewType = types.StreamViewType(s.ViewType)
	}
	return out
}

// sseSpecification returns the encryption settings of the spec.
func sseSpecification(s *v1alpha1.DynamoDBServerSideEncryption) *types.SSESpecification {
	if s == nil {
		return nil
	}
	out := &types.SSESpecification{Enabled: aws.Bool(s.Enabled)}
	if s.Enabled {
		out.SSEType = types.SSETypeKms
		if s.KMSKeyID != "" {
			out.KMSMasterKeyId = aws.String(s.KMSKeyID)
		}
	}
	return out
}

// awsTags returns tags in DynamoDB's form, sorted by key for stable requests.
func awsTags(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
