package loadbalancer

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planListeners compares the spec's listeners with AWS's, port by port, and plans the
// creations, then the modifications, then the deletions of the listeners on ports the spec
// does not name. A listener that forwards to a target group that does not exist yet is
// pending: the target groups' change creates the group, and only then is the listener's
// action known and, for a modification, compared; while the group still does not exist, the
// listener waits.
func (d *driver[O]) planListeners(v view, st *State) managed.Plan {
	var create, modify, remove managed.Plan
	for _, want := range v.spec.Listeners {
		act, ok := wantedAction(want.DefaultAction, st.Groups)
		got, exists := st.Listeners[want.Port]
		pending := !ok
		switch {
		case !exists:
			create.Add("listeners", func(ctx context.Context) error {
				act, ok := wantedAction(want.DefaultAction, st.Groups)
				if !ok {
					return nil
				}
				in := &elb.CreateListenerInput{LoadBalancerArn: st.LB.LoadBalancerArn, Port: aws.Int32(want.Port), Protocol: types.ProtocolEnum(want.Protocol),
					Certificates: certificates(want.CertificateARN), SslPolicy: optional(want.SSLPolicy), DefaultActions: act.sdk()}
				_, err := d.api.CreateListener(ctx, in)
				return managed.Wrap(err, "create the %s listener on port %d", want.Protocol, want.Port)
			})
		case pending || !listenerMatches(want, act, got):
			modify.Add("listeners", func(ctx context.Context) error {
				act, ok := wantedAction(want.DefaultAction, st.Groups)
				if !ok || pending && listenerMatches(want, act, got) {
					return nil
				}
				in := &elb.ModifyListenerInput{ListenerArn: got.ListenerArn, Port: aws.Int32(want.Port), Protocol: types.ProtocolEnum(want.Protocol),
					Certificates: certificates(want.CertificateARN), SslPolicy: optional(want.SSLPolicy), DefaultActions: act.sdk()}
				_, err := d.api.ModifyListener(ctx, in)
				return managed.Wrap(err, "modify the listener on port %d", want.Port)
			})
		}
	}
	for _, port := range slices.Sorted(maps.Keys(st.Listeners)) {
		if slices.ContainsFunc(v.spec.Listeners, func(l v1alpha1.Listener) bool { return l.Port == port }) {
			continue
		}
		arn := st.Listeners[port].ListenerArn
		remove.Add("listeners", func(ctx context.Context) error {
			_, err := d.api.DeleteListener(ctx, &elb.DeleteListenerInput{ListenerArn: arn})
			if awserr.IsNotFound(err) {
				return nil
			}
			return managed.Wrap(err, "delete the listener on port %d", port)
		})
	}
	return slices.Concat(create, modify, remove)
}

// listenerMatches reports whether AWS's listener has the spec's protocol, certificate, SSL
// policy (when the spec names one) and default action.
func listenerMatches(want v1alpha1.Listener, act action, got types.Listener) bool {
	cert := ""
	if len(got.Certificates) > 0 {
		cert = aws.ToString(got.Certificates[0].CertificateArn)
	}
	return string(got.Protocol) == want.Protocol && cert == want.CertificateARN &&
		(want.SSLPolicy == "" || want.SSLPolicy == aws.ToString(got.SslPolicy)) &&
		observedAction(got.DefaultActions) == act
}

// certificates returns a listener's default certificate as ELBv2 takes it, none when arn is
// empty.
func certificates(arn string) []types.Certificate {
	if arn == "" {
		return nil
	}
	return []types.Certificate{{CertificateArn: aws.String(arn)}}
}
