package loadbalancer

import (
	"context"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// fakeELB answers the reads of one load balancer and records every call, in order.
type fakeELB struct {
	elbAPI
	calls []string
}

func (f *fakeELB) record(call string) { f.calls = append(f.calls, call) }

func (f *fakeELB) DescribeLoadBalancers(context.Context, *elb.DescribeLoadBalancersInput, ...func(*elb.Options)) (*elb.DescribeLoadBalancersOutput, error) {
	f.record("DescribeLoadBalancers")
	return &elb.DescribeLoadBalancersOutput{LoadBalancers: []types.LoadBalancer{{LoadBalancerArn: aws.String("arn:lb"), VpcId: aws.String("vpc-1"),
		Scheme: types.LoadBalancerSchemeEnumInternetFacing, IpAddressType: types.IpAddressTypeIpv4, State: &types.LoadBalancerState{Code: types.LoadBalancerStateEnumActive},
		AvailabilityZones: []types.AvailabilityZone{{SubnetId: aws.String("subnet-a")}}}}}, nil
}

func (f *fakeELB) DescribeTargetGroups(context.Context, *elb.DescribeTargetGroupsInput, ...func(*elb.Options)) (*elb.DescribeTargetGroupsOutput, error) {
	f.record("DescribeTargetGroups")
	return &elb.DescribeTargetGroupsOutput{TargetGroups: []types.TargetGroup{{TargetGroupName: aws.String("old"), TargetGroupArn: aws.String("arn:tg/old"),
		Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), TargetType: types.TargetTypeEnumInstance, VpcId: aws.String("vpc-1")}}}, nil
}

func (f *fakeELB) DescribeTags(context.Context, *elb.DescribeTagsInput, ...func(*elb.Options)) (*elb.DescribeTagsOutput, error) {
	f.record("DescribeTags")
	return &elb.DescribeTagsOutput{TagDescriptions: []types.TagDescription{{ResourceArn: aws.String("arn:lb"), Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("old")}}},
		{ResourceArn: aws.String("arn:tg/old")}}}, nil
}

func (f *fakeELB) DescribeListeners(context.Context, *elb.DescribeListenersInput, ...func(*elb.Options)) (*elb.DescribeListenersOutput, error) {
	f.record("DescribeListeners")
	return &elb.DescribeListenersOutput{Listeners: []types.Listener{
		{ListenerArn: aws.String("arn:l/80"), Port: aws.Int32(80), Protocol: types.ProtocolEnumHttp,
			DefaultActions: []types.Action{{Type: types.ActionTypeEnumForward, TargetGroupArn: aws.String("arn:tg/old")}}},
		{ListenerArn: aws.String("arn:l/8080"), Port: aws.Int32(8080), Protocol: types.ProtocolEnumHttp,
			DefaultActions: []types.Action{{Type: types.ActionTypeEnumFixedResponse, FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("404")}}}},
	}}, nil
}

func (f *fakeELB) DescribeRules(_ context.Context, in *elb.DescribeRulesInput, _ ...func(*elb.Options)) (*elb.DescribeRulesOutput, error) {
	f.record("DescribeRules")
	return &elb.DescribeRulesOutput{Rules: []types.Rule{{RuleArn: aws.String(aws.ToString(in.ListenerArn) + "/default"), IsDefault: aws.Bool(true), Priority: aws.String("default")}}}, nil
}

func (f *fakeELB) DescribeLoadBalancerAttributes(context.Context, *elb.DescribeLoadBalancerAttributesInput, ...func(*elb.Options)) (*elb.DescribeLoadBalancerAttributesOutput, error) {
	f.record("DescribeLoadBalancerAttributes")
	return &elb.DescribeLoadBalancerAttributesOutput{Attributes: []types.LoadBalancerAttribute{{Key: aws.String("idle_timeout.timeout_seconds"), Value: aws.String("30")}}}, nil
}

func (f *fakeELB) SetSubnets(context.Context, *elb.SetSubnetsInput, ...func(*elb.Options)) (*elb.SetSubnetsOutput, error) {
	f.record("SetSubnets")
	return &elb.SetSubnetsOutput{}, nil
}

func (f *fakeELB) ModifyLoadBalancerAttributes(context.Context, *elb.ModifyLoadBalancerAttributesInput, ...func(*elb.Options)) (*elb.ModifyLoadBalancerAttributesOutput, error) {
	f.record("ModifyLoadBalancerAttributes")
	return &elb.ModifyLoadBalancerAttributesOutput{}, nil
}

func (f *fakeELB) AddTags(context.Context, *elb.AddTagsInput, ...func(*elb.Options)) (*elb.AddTagsOutput, error) {
	f.record("AddTags")
	return &elb.AddTagsOutput{}, nil
}

func (f *fakeELB) CreateTargetGroup(_ context.Context, in *elb.CreateTargetGroupInput, _ ...func(*elb.Options)) (*elb.CreateTargetGroupOutput, error) {
	f.record("CreateTargetGroup " + aws.ToString(in.Name))
	return &elb.CreateTargetGroupOutput{TargetGroups: []types.TargetGroup{{TargetGroupName: in.Name, TargetGroupArn: aws.String("arn:tg/" + aws.ToString(in.Name))}}}, nil
}

func (f *fakeELB) ModifyListener(_ context.Context, in *elb.ModifyListenerInput, _ ...func(*elb.Options)) (*elb.ModifyListenerOutput, error) {
	f.record("ModifyListener " + aws.ToString(in.ListenerArn) + " -> " + aws.ToString(in.DefaultActions[0].TargetGroupArn))
	return &elb.ModifyListenerOutput{}, nil
}

func (f *fakeELB) DeleteListener(_ context.Context, in *elb.DeleteListenerInput, _ ...func(*elb.Options)) (*elb.DeleteListenerOutput, error) {
	f.record("DeleteListener " + aws.ToString(in.ListenerArn))
	return &elb.DeleteListenerOutput{}, nil
}

func (f *fakeELB) DeleteTargetGroup(_ context.Context, in *elb.DeleteTargetGroupInput, _ ...func(*elb.Options)) (*elb.DeleteTargetGroupOutput, error) {
	f.record("DeleteTargetGroup " + aws.ToString(in.TargetGroupArn))
	return &elb.DeleteTargetGroupOutput{}, nil
}

// TestPlanMakesTheCallsInOrder checks that Observe reads once and plans every difference, and
// that the plan makes its calls in order: a listener that forwards to a target group the plan
// creates gets the new group's ARN, and the group the spec no longer names goes last.
func TestPlanMakesTheCallsInOrder(t *testing.T) {
	b := &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-1"}}
	managed.SetExternalName(b, "arn:lb")
	b.Spec.SubnetIDs = []string{"subnet-a", "subnet-b"}
	b.Spec.Attributes = map[string]string{"idle_timeout.timeout_seconds": "60"}
	b.Spec.TargetGroups = []v1alpha1.TargetGroup{{Name: "web", Protocol: "HTTP", Port: aws.Int32(80)}}
	b.Spec.Listeners = []v1alpha1.Listener{{Port: 80, Protocol: "HTTP", DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "web"}}}}
	b.Status.TargetGroups = []v1alpha1.TargetGroupStatus{{Name: "old", ARN: "arn:tg/old"}}
	api := &fakeELB{}
	d := &driver[*v1alpha1.ALB]{api: api, view: albView, balancers: newListing(api)}
	ctx := context.Background()

	obs, err := d.Observe(ctx, b, managed.Request{Tags: map[string]string{"team": "web"}})
	if err != nil || obs.Conflict != nil {
		t.Fatalf("observe: %v, conflict %v", err, obs.Conflict)
	}
	if want := []string{"DescribeLoadBalancers", "DescribeTargetGroups", "DescribeTags", "DescribeListeners", "DescribeLoadBalancerAttributes",
		"DescribeRules", "DescribeRules"}; !slices.Equal(api.calls, want) {
		t.Errorf("observe calls %q, want %q", api.calls, want)
	}
	// An active load balancer is usable while its listeners are made: the engine reports it
	// Ready=True/Available only once nothing differs.
	if got, want := obs.Changes.String(), "subnets, attributes, tags, targetGroups, listeners"; got != want || !obs.Ready || obs.UpToDate() {
		t.Errorf("changes %q (Ready %v), want %q, usable and not up to date", got, obs.Ready, want)
	}
	again, err := d.Observe(ctx, b, managed.Request{Tags: map[string]string{"team": "web"}})
	if err != nil || again.Changes.String() != obs.Changes.String() {
		t.Fatalf("second observe: %v, changes %q", err, again.Changes.String())
	}
	if want := []string{"DescribeLoadBalancers", "DescribeTargetGroups", "DescribeTags", "DescribeListeners", "DescribeLoadBalancerAttributes",
		"DescribeRules", "DescribeRules"}; !slices.Equal(api.calls[7:], want) {
		t.Errorf("a second look at a listed load balancer calls %q, want the direct read %q", api.calls[7:], want)
	}
	api.calls = nil
	if err := obs.Changes.Apply(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"SetSubnets", "ModifyLoadBalancerAttributes", "AddTags", "CreateTargetGroup web", "ModifyListener arn:l/80 -> arn:tg/web",
		"DeleteListener arn:l/8080", "DeleteTargetGroup arn:tg/old"}
	if !slices.Equal(api.calls, want) {
		t.Errorf("apply calls %q, want %q", api.calls, want)
	}
	if got := b.Status.TargetGroups; len(got) != 1 || got[0].Name != "web" || got[0].ARN != "arn:tg/web" {
		t.Errorf("status target groups %+v, want only web", got)
	}

	api.calls = nil
	if obs, err = d.Observe(ctx, b, managed.Request{Tags: map[string]string{"team": "web"}, Deleting: true}); err != nil || !obs.UpToDate() {
		t.Errorf("observe while deleting: %v, changes %q", err, obs.Changes)
	}
}
