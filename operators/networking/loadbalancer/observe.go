package loadbalancer

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a load balancer and what hangs off it.
type State struct {
	// LB is DescribeLoadBalancers' answer.
	LB types.LoadBalancer
	// Attributes are the load balancer's attributes by key.
	Attributes map[string]string
	// Tags are the tags of the load balancer and of its target groups, by ARN.
	Tags map[string]map[string]string
	// Listeners are the load balancer's listeners by port.
	Listeners map[int32]types.Listener
	// Groups are the target groups this object owns, by name: the spec's and the ones it
	// recorded in its status, as far as they exist.
	Groups map[string]types.TargetGroup
	// Rules are the rules of the HTTP and HTTPS listeners by port, then by priority, without
	// the default rules.
	Rules map[int32]map[int32]types.Rule
	// Health is the health of the registered targets of the spec's groups that list their
	// targets, by group name.
	Health map[string][]types.TargetHealthDescription
}

// arns returns the ARNs of the load balancer and of its target groups (by name).
func (st *State) arns() []string {
	arns := []string{aws.ToString(st.LB.LoadBalancerArn)}
	for _, name := range slices.Sorted(maps.Keys(st.Groups)) {
		arns = append(arns, aws.ToString(st.Groups[name].TargetGroupArn))
	}
	return arns
}

// Observe reads the load balancer (by its recorded ARN, or by name, claiming it through its
// ownership tags), its attributes, listeners, target groups and tags, fills the status and,
// unless the object is being deleted, plans what differs from the spec. The load balancer is
// Ready when it is active and matches the spec.
func (d *driver[O]) Observe(ctx context.Context, o O, req managed.Request) (managed.Observation[State], error) {
	v := d.view(o)
	lb, found, err := d.find(ctx, o, v.name)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	arn := aws.ToString(lb.LoadBalancerArn)
	st := &State{LB: lb}
	if st.Groups, err = d.targetGroups(ctx, v); err != nil {
		return managed.Observation[State]{}, err
	}
	if st.Tags, err = d.tags(ctx, st); err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(o, "load balancer", arn, st.Tags[arn]); err != nil {
		return managed.Observation[State]{}, err
	}
	conflict := ownGroups(o, v, st)
	if st.Listeners, err = d.listeners(ctx, arn); err != nil {
		return managed.Observation[State]{}, err
	}
	if st.Attributes, err = d.attributes(ctx, arn); err != nil {
		return managed.Observation[State]{}, err
	}
	if st.Rules, err = d.rules(ctx, st.Listeners); err != nil {
		return managed.Observation[State]{}, err
	}
	if st.Health, err = d.health(ctx, v, st.Groups); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(v, st)
	obs := managed.Observation[State]{Exists: true, State: st, Tags: st.Tags[arn], Conflict: conflict}
	if !req.Deleting {
		var grants managed.Plan
		if err := d.planInvokeGrants(ctx, o, v, st, &grants); err != nil {
			return managed.Observation[State]{}, err
		}
		if immutable := d.plan(&obs.Changes, v, st, req.Tags, grants); conflict == nil {
			obs.Conflict = immutable
		}
	}
	var state types.LoadBalancerStateEnum
	if lb.State != nil {
		state = lb.State.Code
	}
	switch state {
	case types.LoadBalancerStateEnumActive, types.LoadBalancerStateEnumActiveImpaired:
		// Usable: the engine still reports Ready=True/Available only once listeners and target
		// groups match the spec, and a drift that driftPolicy Report leaves (or an observed
		// load balancer) stays usable.
		obs.Ready = true
	case types.LoadBalancerStateEnumFailed:
		obs.Message = "the load balancer failed: " + cmp.Or(aws.ToString(lb.State.Reason), "no reason given")
	default:
		obs.Message = "state is " + string(state)
	}
	return obs, nil
}

// find reads the load balancer by its recorded ARN (from the provider's listing at a periodic
// sync) or, before one is recorded, by name.
func (d *driver[O]) find(ctx context.Context, o O, name string) (types.LoadBalancer, bool, error) {
	in := &elb.DescribeLoadBalancersInput{Names: []string{name}}
	if arn := managed.ExternalName(o); arn != "" {
		// A listing refused (credentials limited to some load balancers) leaves the direct
		// read, which reports its own errors.
		if listed, ok, err := d.balancers.Get(ctx, arn); err == nil && ok {
			return listed, true, nil
		}
		in = &elb.DescribeLoadBalancersInput{LoadBalancerArns: []string{arn}}
	}
	out, err := d.api.DescribeLoadBalancers(ctx, in)
	if awserr.IsNotFound(err) {
		return types.LoadBalancer{}, false, nil
	}
	if err != nil || len(out.LoadBalancers) == 0 {
		return types.LoadBalancer{}, false, managed.Wrap(err, "describe load balancer %s", name)
	}
	return out.LoadBalancers[0], true, nil
}

// targetGroups reads the target groups the spec names and the ones recorded in the status,
// in one call while all exist and, when AWS answers that one does not, one call per name.
func (d *driver[O]) targetGroups(ctx context.Context, v view) (map[string]types.TargetGroup, error) {
	var names []string
	for _, g := range v.spec.TargetGroups {
		names = append(names, g.Name)
	}
	for _, g := range v.status.TargetGroups {
		if !slices.Contains(names, g.Name) {
			names = append(names, g.Name)
		}
	}
	found := map[string]types.TargetGroup{}
	if len(names) == 0 {
		return found, nil
	}
	batches := [][]string{names}
	for i := 0; i < len(batches); i++ {
		out, err := d.api.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{Names: batches[i]})
		switch {
		case awserr.IsNotFound(err) && i == 0:
			for _, n := range names {
				batches = append(batches, []string{n})
			}
		case awserr.IsNotFound(err):
		case err != nil && i == 0:
			return nil, fmt.Errorf("describe target groups %s: %w", strings.Join(names, ", "), err)
		case err != nil:
			return nil, fmt.Errorf("describe target group %s: %w", batches[i][0], err)
		default:
			for _, g := range out.TargetGroups {
				found[aws.ToString(g.TargetGroupName)] = g
			}
		}
	}
	return found, nil
}

// maxTagARNs is how many resources one DescribeTags call takes.
const maxTagARNs = 20

// tags reads the tags of the load balancer and of the target groups in st, 20 resources a
// call.
func (d *driver[O]) tags(ctx context.Context, st *State) (map[string]map[string]string, error) {
	tags := map[string]map[string]string{}
	for batch := range slices.Chunk(st.arns(), maxTagARNs) {
		out, err := d.api.DescribeTags(ctx, &elb.DescribeTagsInput{ResourceArns: batch})
		if err != nil {
			return nil, fmt.Errorf("describe the tags of load balancer %s and its target groups: %w", aws.ToString(st.LB.LoadBalancerArn), err)
		}
		for _, td := range out.TagDescriptions {
			tags[aws.ToString(td.ResourceArn)] = managed.TagMap(td.Tags, func(t types.Tag) (string, string) {
				return aws.ToString(t.Key), aws.ToString(t.Value)
			})
		}
	}
	return tags, nil
}

// ownGroups keeps the target groups o owns: those carrying its ownership tags, and those it
// recorded in its status (whose tags drifted). A target group of the spec's that someone else
// owns is a terminal error: its name is taken.
func ownGroups(o shared.Managed, v view, st *State) error {
	for name, g := range st.Groups {
		arn := aws.ToString(g.TargetGroupArn)
		recorded := slices.ContainsFunc(v.status.TargetGroups, func(s v1alpha1.TargetGroupStatus) bool { return s.ARN == arn })
		if recorded || managed.OwnedBy(o, st.Tags[arn]) {
			continue
		}
		delete(st.Groups, name)
		if slices.ContainsFunc(v.spec.TargetGroups, func(t v1alpha1.TargetGroup) bool { return t.Name == name }) {
			return managed.Terminal(condition.ReasonAlreadyExists, "target group %s already exists in AWS and this object did not create it; choose another name", name)
		}
	}
	return nil
}

// listeners reads the load balancer's listeners.
func (d *driver[O]) listeners(ctx context.Context, arn string) (map[int32]types.Listener, error) {
	listeners := map[int32]types.Listener{}
	var marker *string
	for {
		out, err := d.api.DescribeListeners(ctx, &elb.DescribeListenersInput{LoadBalancerArn: aws.String(arn), Marker: marker})
		if err != nil {
			return nil, fmt.Errorf("describe the listeners of load balancer %s: %w", arn, err)
		}
		for _, l := range out.Listeners {
			listeners[aws.ToInt32(l.Port)] = l
		}
		if marker = out.NextMarker; marker == nil {
			return listeners, nil
		}
	}
}

// attributes reads the load balancer's attributes.
func (d *driver[O]) attributes(ctx context.Context, arn string) (map[string]string, error) {
	out, err := d.api.DescribeLoadBalancerAttributes(ctx, &elb.DescribeLoadBalancerAttributesInput{LoadBalancerArn: aws.String(arn)})
	if err != nil {
		return nil, fmt.Errorf("describe the attributes of load balancer %s: %w", arn, err)
	}
	return managed.TagMap(out.Attributes, func(a types.LoadBalancerAttribute) (string, string) {
		return aws.ToString(a.Key), aws.ToString(a.Value)
	}), nil
}

// fillStatus records what AWS said in the status.
func fillStatus(v view, st *State) {
	lb := st.LB
	v.status.ARN, v.status.DNSName = aws.ToString(lb.LoadBalancerArn), aws.ToString(lb.DNSName)
	v.status.CanonicalHostedZoneID, v.status.VPCID = aws.ToString(lb.CanonicalHostedZoneId), aws.ToString(lb.VpcId)
	if lb.State != nil {
		v.status.State = string(lb.State.Code)
	}
	v.status.TargetGroups = v.status.TargetGroups[:0]
	for _, name := range slices.Sorted(maps.Keys(st.Groups)) {
		g := v1alpha1.TargetGroupStatus{Name: name, ARN: aws.ToString(st.Groups[name].TargetGroupArn)}
		if h, ok := st.Health[name]; ok {
			g.Targets = targetStatus(h)
		}
		v.status.TargetGroups = append(v.status.TargetGroups, g)
	}
	v.status.Listeners = v.status.Listeners[:0]
	for _, port := range slices.Sorted(maps.Keys(st.Listeners)) {
		v.status.Listeners = append(v.status.Listeners, v1alpha1.ListenerStatus{Port: port, ARN: aws.ToString(st.Listeners[port].ListenerArn),
			Rules: ruleStatus(st.Rules[port])})
	}
}
