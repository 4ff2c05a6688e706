package dynamodbtable

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
)

// indexPlan is what turns the table's global secondary indexes into the spec's. DynamoDB
// takes one index creation or deletion per UpdateTable call, so they are applied one per
// reconcile: removals first, then creations, then capacity changes.
type indexPlan struct {
	// remove are indexes the spec does not have, or whose keys or projection changed.
	remove []string
	// create are the spec's indexes the table lacks (after removals).
	create []v1alpha1.DynamoDBGlobalSecondaryIndex
	// capacity are indexes whose provisioned throughput differs.
	capacity []types.GlobalSecondaryIndexUpdate
}

// planIndexes compares the spec's global secondary indexes with the table's.
func planIndexes(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription) indexPlan {
	var p indexPlan
	have := map[string]types.GlobalSecondaryIndexDescription{}
	for _, g := range table.GlobalSecondaryIndexes {
		have[aws.ToString(g.IndexName)] = g
	}
	want := map[string]bool{}
	for _, g := range s.GlobalSecondaryIndexes {
		want[g.IndexName] = true
		got, ok := have[g.IndexName]
		switch {
		case !ok:
			p.create = append(p.create, g)
		case !sameIndexShape(g, got):
			p.remove = append(p.remove, g.IndexName)
			p.create = append(p.create, g)
		case s.BillingMode == string(types.BillingModeProvisioned) && !sameThroughput(g.ReadCapacityUnits, g.WriteCapacityUnits, got.ProvisionedThroughput):
			p.capacity = append(p.capacity, types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String(g.IndexName), ProvisionedThroughput: throughput(g.ReadCapacityUnits, g.WriteCapacityUnits)}})
		}
	}
	for _, g := range table.GlobalSecondaryIndexes {
		if name := aws.ToString(g.IndexName); !want[name] {
			p.remove = append(p.remove, name)
		}
	}
	slices.Sort(p.remove)
	return p
}

// sameIndexShape reports whether an index has the spec's keys and projection, which cannot
// change in place.
func sameIndexShape(want v1alpha1.DynamoDBGlobalSecondaryIndex, got types.GlobalSecondaryIndexDescription) bool {
	ks := keySchema(want.HashKey, want.RangeKey)
	if !slices.EqualFunc(ks, got.KeySchema, func(a, b types.KeySchemaElement) bool {
		return aws.ToString(a.AttributeName) == aws.ToString(b.AttributeName) && a.KeyType == b.KeyType
	}) {
		return false
	}
	wp, gp := projection(want.Projection), got.Projection
	if gp == nil {
		return wp.ProjectionType == types.ProjectionTypeAll
	}
	a, b := slices.Clone(wp.NonKeyAttributes), slices.Clone(gp.NonKeyAttributes)
	slices.Sort(a)
	slices.Sort(b)
	return wp.ProjectionType == gp.ProjectionType && slices.Equal(a, b)
}
