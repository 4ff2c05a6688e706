package ecsutil

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
)

// Strategy returns a capacity provider strategy of a spec as ECS takes it.
func Strategy(items []v1alpha1.ECSCapacityProviderStrategyItem) []types.CapacityProviderStrategyItem {
	out := []types.CapacityProviderStrategyItem{}
	for _, item := range items {
		out = append(out, types.CapacityProviderStrategyItem{CapacityProvider: aws.String(item.CapacityProvider), Weight: item.Weight, Base: item.Base})
	}
	return out
}

// StrategyKeys returns a capacity provider strategy as comparable strings, one per provider
// (provider/weight/base), sorted.
func StrategyKeys(items []types.CapacityProviderStrategyItem) []string {
	keys := make([]string, 0, len(items))
	for _, item := range items {
		keys = append(keys, fmt.Sprintf("%s/%d/%d", aws.ToString(item.CapacityProvider), item.Weight, item.Base))
	}
	slices.Sort(keys)
	return keys
}
