package apigateway

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	elbtypes "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
)

// listenerAPI is the part of Elastic Load Balancing the operator uses: the listeners of a load
// balancer, which private integrations target by ARN.
type listenerAPI interface {
	DescribeListeners(ctx context.Context, in *elasticloadbalancingv2.DescribeListenersInput, opts ...func(*elasticloadbalancingv2.Options)) (*elasticloadbalancingv2.DescribeListenersOutput, error)
}

var _ listenerAPI = (*elasticloadbalancingv2.Client)(nil)

// listenerCache holds the listeners of the load balancers one observation has read, by load
// balancer ARN, so that routes to one load balancer cost one DescribeListeners.
type listenerCache map[string][]elbtypes.Listener

// listenerARN returns the ARN of the listener of load balancer lb on port, "" when it has none.
func (d *httpDriver) listenerARN(ctx context.Context, cache listenerCache, lb string, port int32) (string, error) {
	listeners, ok := cache[lb]
	if !ok {
		pages := elasticloadbalancingv2.NewDescribeListenersPaginator(d.elb, &elasticloadbalancingv2.DescribeListenersInput{LoadBalancerArn: aws.String(lb)})
		for pages.HasMorePages() {
			out, err := pages.NextPage(ctx)
			if err != nil {
				return "", fmt.Errorf("list the listeners of load balancer %s: %w", lb, err)
			}
			listeners = append(listeners, out.Listeners...)
		}
		cache[lb] = listeners
	}
	for _, l := range listeners {
		if aws.ToInt32(l.Port) == port {
			return aws.ToString(l.ListenerArn), nil
		}
	}
	return "", nil
}
