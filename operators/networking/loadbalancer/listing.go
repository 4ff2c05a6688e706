package loadbalancer

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// balancers returns the provider session's listing of load balancers, ALBs and NLBs alike: at
// periodic syncs one paginated DescribeLoadBalancers serves every load balancer's first read.
// Their target groups, tags, listeners and attributes are still read one load balancer at a
// time: ELBv2 lists none of them across load balancers.
func balancers(s *provider.Session, api elb.DescribeLoadBalancersAPIClient) *managed.Listing[types.LoadBalancer] {
	return provider.Client(s, "elbv2/load-balancer-listing", func(aws.Config) *managed.Listing[types.LoadBalancer] { return newListing(api) })
}

// newListing returns a listing of the load balancers api may describe, by ARN.
func newListing(api elb.DescribeLoadBalancersAPIClient) *managed.Listing[types.LoadBalancer] {
	return &managed.Listing[types.LoadBalancer]{TTL: managed.ListingTTL, List: func(ctx context.Context) (map[string]types.LoadBalancer, error) {
		out := map[string]types.LoadBalancer{}
		pages := elb.NewDescribeLoadBalancersPaginator(api, &elb.DescribeLoadBalancersInput{PageSize: aws.Int32(400)})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return nil, fmt.Errorf("list load balancers: %w", err)
			}
			for _, lb := range page.LoadBalancers {
				out[aws.ToString(lb.LoadBalancerArn)] = lb
			}
		}
		return out, nil
	}}
}
