package loadbalancer

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/shared/awserr"
)

// applyListeners creates, modifies and deletes the load balancer's listeners as p says.
func (d *driver[O]) applyListeners(ctx context.Context, arn string, p listenerPlan) error {
	for _, c := range p.create {
		in := &elb.CreateListenerInput{LoadBalancerArn: aws.String(arn), Port: aws.Int32(c.spec.Port), Protocol: types.ProtocolEnum(c.spec.Protocol),
			Certificates: certificates(c.spec.CertificateARN), SslPolicy: optional(c.spec.SSLPolicy), DefaultActions: c.action.sdk()}
		if _, err := d.api.CreateListener(ctx, in); err != nil {
			return fmt.Errorf("create the %s listener on port %d: %w", c.spec.Protocol, c.spec.Port, err)
		}
	}
	for _, c := range p.modify {
		in := &elb.ModifyListenerInput{ListenerArn: aws.String(c.arn), Port: aws.Int32(c.spec.Port), Protocol: types.ProtocolEnum(c.spec.Protocol),
			Certificates: certificates(c.spec.CertificateARN), SslPolicy: optional(c.spec.SSLPolicy), DefaultActions: c.action.sdk()}
		if _, err := d.api.ModifyListener(ctx, in); err != nil {
			return fmt.Errorf("modify the listener on port %d: %w", c.spec.Port, err)
		}
	}
	for _, l := range p.remove {
		if _, err := d.api.DeleteListener(ctx, &elb.DeleteListenerInput{ListenerArn: l.ListenerArn}); err != nil && !awserr.IsNotFound(err) {
			return fmt.Errorf("delete the listener on port %d: %w", aws.ToInt32(l.Port), err)
		}
	}
	return nil
}

// certificates returns a listener's default certificate as ELBv2 takes it, none when arn is
// empty.
func certificates(arn string) []types.Certificate {
	if arn == "" {
		return nil
	}
	return []types.Certificate{{CertificateArn: aws.String(arn)}}
}
