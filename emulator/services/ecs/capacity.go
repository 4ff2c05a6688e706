package ecs

import (
	"regexp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The launch types a service's tasks are counted under.
const (
	fargate = "FARGATE"
	ec2     = "EC2"
)

// fargateProviders are the capacity providers every account has; capacity providers of Auto
// Scaling groups are not emulated.
var fargateProviders = []string{"FARGATE", "FARGATE_SPOT"}

// checkStrategy returns the InvalidParameterException AWS gives capacity providers that do not
// exist, or a strategy that names a provider not among providers (the cluster's), names one
// twice, gives more than one a base, has a base outside 0 to 100,000 or a weight outside 0 to
// 1,000, or gives every provider a weight of 0.
func checkStrategy(strategy []types.CapacityProviderStrategyItem, providers []string) error {
	for _, p := range providers {
		if !slices.Contains(fargateProviders, p) {
			return invalidParameter("The specified capacity provider '%s' does not exist. Specify a valid capacity provider and try again.", p)
		}
	}
	if len(strategy) > 20 {
		return invalidParameter("A capacity provider strategy can contain at most 20 capacity providers.")
	}
	seen := map[string]bool{}
	bases, weight := 0, int32(0)
	for _, item := range strategy {
		p := aws.ToString(item.CapacityProvider)
		if !slices.Contains(providers, p) {
			return invalidParameter("The specified capacity provider strategy cannot contain a capacity provider that is not associated with the cluster. " +
				"Associate the capacity provider with the cluster or specify a valid capacity provider and try again.")
		}
		if seen[p] {
			return invalidParameter("The specified capacity provider strategy cannot contain duplicate capacity providers.")
		}
		seen[p] = true
		if item.Base < 0 || item.Base > 100000 || item.Weight < 0 || item.Weight > 1000 {
			return invalidParameter("A capacity provider's base must be between 0 and 100000 and its weight between 0 and 1000.")
		}
		if item.Base > 0 {
			bases++
		}
		weight += item.Weight
	}
	if bases > 1 {
		return invalidParameter("Only one capacity provider in a capacity provider strategy can have a base defined.")
	}
	if len(strategy) > 0 && weight == 0 {
		return invalidParameter("At least one capacity provider in a capacity provider strategy must have a weight greater than zero.")
	}
	return nil
}

// namespaceARN is the form of a Cloud Map namespace ARN.
var namespaceARN = regexp.MustCompile(`^arn:aws[a-z-]*:servicediscovery:[a-z0-9-]+:[0-9]{12}:namespace/ns-[a-z0-9]+$`)

// namespaceName is the form of a Cloud Map HTTP namespace name, of at most 1,024 characters.
var namespaceName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// namespace returns the ARN of the Service Connect namespace a request names: an ARN as it is, a
// name as the ARN of the namespace of that name the emulator made for it (the same for the same
// name in the region). An empty name removes the default namespace. The caller holds the backend's
// mutex.
func (r *region) namespace(call *core.Call, ref *string) (string, error) {
	s := aws.ToString(ref)
	switch {
	case s == "" || namespaceARN.MatchString(s):
		return s, nil
	case len(s) > 1024 || !namespaceName.MatchString(s):
		return "", invalidParameter("The specified namespace '%s' is not a valid namespace name or ARN.", s)
	}
	if arn, ok := r.namespaces[s]; ok {
		return arn, nil
	}
	arn := call.Scope().ARN("servicediscovery", "namespace/ns-"+core.LowerAlnumID(16))
	r.namespaces[s] = arn
	return arn, nil
}

// pageSize returns a request's maxResults (1 to 100), or def.
func pageSize(maxResults *int32, def int) (int, error) {
	if maxResults == nil {
		return def, nil
	}
	if *maxResults < 1 || *maxResults > 100 {
		return 0, invalidParameter("maxResults must be between 1 and 100.")
	}
	return int(*maxResults), nil
}

// paginate returns the page of items that token starts, and the token of the next page (nil
// after the last); a token that no page gave is InvalidParameterException.
func paginate[T any](items []T, token *string, size int) ([]T, *string, error) {
	page, next, ok := core.PageAt(items, token, size)
	if !ok {
		return nil, nil, invalidParameter("Invalid nextToken.")
	}
	return page, next, nil
}
