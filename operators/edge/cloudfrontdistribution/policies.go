package cloudfrontdistribution

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// managedPrefix begins the name of every AWS managed policy.
const managedPrefix = "Managed-"

// policyCatalog holds the ids of the AWS managed cache and origin request policies by name,
// read once per provider: AWS adds managed policies rarely and never changes their ids.
type policyCatalog struct {
	mu            sync.Mutex
	cache, origin map[string]string // id by name
}

// policyIDs are the managed policies' ids by name.
type policyIDs struct {
	cache, origin map[string]string
}

// ids returns the catalogue, listing the managed policies (Type=managed) on first use.
func (p *policyCatalog) ids(ctx context.Context, api cloudfrontAPI) (policyIDs, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cache == nil {
		cache, err := listCachePolicies(ctx, api)
		if err != nil {
			return policyIDs{}, err
		}
		origin, err := listOriginRequestPolicies(ctx, api)
		if err != nil {
			return policyIDs{}, err
		}
		p.cache, p.origin = cache, origin
	}
	return policyIDs{cache: p.cache, origin: p.origin}, nil
}

// listCachePolicies returns the ids of the AWS managed cache policies by name.
func listCachePolicies(ctx context.Context, api cloudfrontAPI) (map[string]string, error) {
	out := map[string]string{}
	var marker *string
	for {
		page, err := api.ListCachePolicies(ctx, &cloudfront.ListCachePoliciesInput{Type: types.CachePolicyTypeManaged, Marker: marker})
		if err != nil {
			return nil, managed.Wrap(err, "list the managed cache policies")
		}
		if page.CachePolicyList == nil {
			return out, nil
		}
		for _, s := range page.CachePolicyList.Items {
			if p := s.CachePolicy; p != nil && p.CachePolicyConfig != nil {
				out[aws.ToString(p.CachePolicyConfig.Name)] = aws.ToString(p.Id)
			}
		}
		if marker = page.CachePolicyList.NextMarker; aws.ToString(marker) == "" {
			return out, nil
		}
	}
}

// listOriginRequestPolicies returns the ids of the AWS managed origin request policies by name.
func listOriginRequestPolicies(ctx context.Context, api cloudfrontAPI) (map[string]string, error) {
	out := map[string]string{}
	var marker *string
	for {
		page, err := api.ListOriginRequestPolicies(ctx, &cloudfront.ListOriginRequestPoliciesInput{Type: types.OriginRequestPolicyTypeManaged, Marker: marker})
		if err != nil {
			return nil, managed.Wrap(err, "list the managed origin request policies")
		}
		if page.OriginRequestPolicyList == nil {
			return out, nil
		}
		for _, s := range page.OriginRequestPolicyList.Items {
			if p := s.OriginRequestPolicy; p != nil && p.OriginRequestPolicyConfig != nil {
				out[aws.ToString(p.OriginRequestPolicyConfig.Name)] = aws.ToString(p.Id)
			}
		}
		if marker = page.OriginRequestPolicyList.NextMarker; aws.ToString(marker) == "" {
			return out, nil
		}
	}
}

// lookup returns the id of the managed policy named name (with or without its "Managed-"
// prefix) in byName, or a terminal error naming the field and a few known names.
func lookup(byName map[string]string, field, name string) (string, error) {
	if id, ok := byName[managedPrefix+strings.TrimPrefix(name, managedPrefix)]; ok {
		return id, nil
	}
	known := make([]string, 0, len(byName))
	for n := range byName {
		known = append(known, strings.TrimPrefix(n, managedPrefix))
	}
	slices.Sort(known)
	return "", managed.Terminal(condition.ReasonInvalidSpec, "%s %q is not an AWS managed policy; use one of %s", field, name, strings.Join(known, ", "))
}
