package loadbalancer

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// listenerPlan is what brings the listeners to the spec.
type listenerPlan struct {
	// create are the spec's listeners on ports without one.
	create []listenerChange
	// modify are the spec's listeners that differ from AWS's on their port.
	modify []listenerChange
	// remove are AWS's listeners on ports the spec does not name.
	remove []types.Listener
}

// listenerChange is one listener to create or modify.
type listenerChange struct {
	// spec is the spec's listener.
	spec v1alpha1.Listener
	// got is AWS's listener on the port, for a modification.
	got types.Listener
	// pending is true when the listener forwards to a target group that does not exist yet:
	// the target groups' change creates it, and only then is the listener's action known
	// and, for a modification, compared.
	pending bool
}

// empty reports whether the listeners match the spec.
func (p listenerPlan) empty() bool {
	return len(p.create)+len(p.modify)+len(p.remove) == 0
}

// planListeners compares the spec's listeners with AWS's, port by port.
func planListeners(v view, st *State) listenerPlan {
	var p listenerPlan
	for _, want := range v.spec.Listeners {
		act, ok := wantedAction(want.DefaultAction, st.Groups)
		got, exists := st.Listeners[want.Port]
		switch {
		case !exists:
			p.create = append(p.create, listenerChange{spec: want, pending: !ok})
		case !ok || !listenerMatches(want, act, got):
			p.modify = append(p.modify, listenerChange{spec: want, got: got, pending: !ok})
		}
	}
	for _, port := range slices.Sorted(maps.Keys(st.Listeners)) {
		if !slices.ContainsFunc(v.spec.Listeners, func(l v1alpha1.Listener) bool { return l.Port == port }) {
			p.remove = append(p.remove, st.Listeners[port])
		}
	}
	return p
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

// applyListeners creates, modifies and deletes the listeners of load balancer arn as p says,
// with the actions the target groups in st (those just created included) give. A pending
// listener whose target group still does not exist waits.
func (d *driver[O]) applyListeners(ctx context.Context, arn *string, st *State, p listenerPlan) error {
	for _, c := range p.create {
		act, ok := wantedAction(c.spec.DefaultAction, st.Groups)
		if !ok {
			continue
		}
		in := &elb.CreateListenerInput{LoadBalancerArn: arn, Port: aws.Int32(c.spec.Port), Protocol: types.ProtocolEnum(c.spec.Protocol),
			Certificates: certificates(c.spec.CertificateARN), SslPolicy: optional(c.spec.SSLPolicy), DefaultActions: act.sdk()}
		if _, err := d.api.CreateListener(ctx, in); err != nil {
			return fmt.Errorf("create the %s listener on port %d: %w", c.spec.Protocol, c.spec.Port, err)
		}
	}
	for _, c := range p.modify {
		act, ok := wantedAction(c.spec.DefaultAction, st.Groups)
		if !ok || c.pending && listenerMatches(c.spec, act, c.got) {
			continue
		}
		in := &elb.ModifyListenerInput{ListenerArn: c.got.ListenerArn, Port: aws.Int32(c.spec.Port), Protocol: types.ProtocolEnum(c.spec.Protocol),
			Certificates: certificates(c.spec.CertificateARN), SslPolicy: optional(c.spec.SSLPolicy), DefaultActions: act.sdk()}
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
