package loadbalancer

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
)

// fakeTargets records the targets of RegisterTargets and DeregisterTargets calls.
type fakeTargets struct {
	elbAPI
	calls []string
}

func (f *fakeTargets) RegisterTargets(_ context.Context, in *elb.RegisterTargetsInput, _ ...func(*elb.Options)) (*elb.RegisterTargetsOutput, error) {
	for _, t := range in.Targets {
		f.calls = append(f.calls, "register "+registrationKey(*t.Id, aws.ToInt32(t.Port)))
	}
	return &elb.RegisterTargetsOutput{}, nil
}

func (f *fakeTargets) DeregisterTargets(_ context.Context, in *elb.DeregisterTargetsInput, _ ...func(*elb.Options)) (*elb.DeregisterTargetsOutput, error) {
	for _, t := range in.Targets {
		f.calls = append(f.calls, "deregister "+registrationKey(*t.Id, aws.ToInt32(t.Port)))
	}
	return &elb.DeregisterTargetsOutput{}, nil
}

// TestPlanTargets checks that targets are registered and deregistered as a set, by id and
// port, that draining targets count as gone, and that a group whose spec lists no targets is
// left alone.
func TestPlanTargets(t *testing.T) {
	described := func(state types.TargetHealthStateEnum, id string, port int32) types.TargetHealthDescription {
		return types.TargetHealthDescription{Target: &types.TargetDescription{Id: aws.String(id), Port: aws.Int32(port)}, TargetHealth: &types.TargetHealth{State: state}}
	}
	cases := map[string]struct {
		targets []v1alpha1.Target
		health  []types.TargetHealthDescription
		want    []string
	}{
		"Same": {targets: []v1alpha1.Target{{InstanceID: "i-1"}}, health: []types.TargetHealthDescription{described("healthy", "i-1", 80)}},
		"OtherPort": {targets: []v1alpha1.Target{{InstanceID: "i-1", Port: aws.Int32(8080)}}, health: []types.TargetHealthDescription{described("healthy", "i-1", 80)},
			want: []string{"register i-1:8080", "deregister i-1:80"}},
		"DrainingComesBack": {targets: []v1alpha1.Target{{IP: "10.0.1.5"}}, health: []types.TargetHealthDescription{described("draining", "10.0.1.5", 80)},
			want: []string{"register 10.0.1.5:80"}},
		"EmptyListDeregistersAll": {targets: []v1alpha1.Target{}, health: []types.TargetHealthDescription{described("healthy", "i-1", 80), described("initial", "i-2", 80)},
			want: []string{"deregister i-1:80", "deregister i-2:80"}},
		"Unmanaged": {health: nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			api := &fakeTargets{}
			d := &driver[*v1alpha1.ALB]{api: api}
			g := v1alpha1.TargetGroup{Name: "web", Protocol: "HTTP", Port: aws.Int32(80), TargetType: "instance", Targets: tc.targets}
			st := &State{Groups: map[string]types.TargetGroup{"web": {TargetGroupArn: aws.String("arn:tg/web")}}, Health: map[string][]types.TargetHealthDescription{}}
			if managesTargets(g) {
				st.Health["web"] = tc.health
			}
			v := view{spec: &v1alpha1.LoadBalancerSpec{TargetGroups: []v1alpha1.TargetGroup{g}}}
			if err := d.planTargets(v, st).Apply(context.Background()); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, api.calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}
