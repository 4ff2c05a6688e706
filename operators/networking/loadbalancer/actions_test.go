package loadbalancer

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
)

// TestActionsCompareWithAWSDefaults checks that a spec's action equals AWS's description of
// it, with the defaults AWS fills in, and differs from it when a part changes.
func TestActionsCompareWithAWSDefaults(t *testing.T) {
	groups := map[string]types.TargetGroup{"web": {TargetGroupArn: aws.String("arn:tg/web")}}
	redirect := v1alpha1.Action{Redirect: &v1alpha1.RedirectAction{Protocol: "HTTPS", Port: "443", StatusCode: "HTTP_301"}}
	described := []types.Action{{Type: types.ActionTypeEnumRedirect, RedirectConfig: &types.RedirectActionConfig{StatusCode: "HTTP_301",
		Protocol: aws.String("HTTPS"), Port: aws.String("443"), Host: aws.String("#{host}"), Path: aws.String("/#{path}"), Query: aws.String("#{query}")}}}
	forward := []types.Action{{Type: types.ActionTypeEnumForward, ForwardConfig: &types.ForwardActionConfig{
		TargetGroups: []types.TargetGroupTuple{{TargetGroupArn: aws.String("arn:tg/web")}}}}}
	cases := map[string]struct {
		spec   v1alpha1.Action
		aws    []types.Action
		equal  bool
		exists bool
	}{
		"RedirectDefaults": {spec: redirect, aws: described, equal: true, exists: true},
		"RedirectHost": {spec: v1alpha1.Action{Redirect: &v1alpha1.RedirectAction{Protocol: "HTTPS", Port: "443", Host: "example.com", StatusCode: "HTTP_301"}},
			aws: described, exists: true},
		"ForwardByConfig": {spec: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "web"}}, aws: forward, equal: true, exists: true},
		"ForwardByARN":    {spec: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroupARN: "arn:tg/other"}}, aws: forward, exists: true},
		"ForwardMissing":  {spec: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "api"}}, aws: forward},
		"FixedVsRedirect": {spec: v1alpha1.Action{FixedResponse: &v1alpha1.FixedResponseAction{StatusCode: "404"}}, aws: described, exists: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, ok := wantedAction(tc.spec, groups)
			if ok != tc.exists {
				t.Fatalf("resolvable = %v, want %v", ok, tc.exists)
			}
			if got := observedAction(tc.aws) == want; ok && got != tc.equal {
				t.Errorf("equal = %v, want %v (spec %+v, AWS %+v)", got, tc.equal, want, observedAction(tc.aws))
			}
		})
	}
}

// TestHealthCheckComparesSetFieldsOnly checks that only the health check fields the spec sets
// are compared.
func TestHealthCheckComparesSetFieldsOnly(t *testing.T) {
	got := types.TargetGroup{HealthCheckPath: aws.String("/"), HealthCheckIntervalSeconds: aws.Int32(30), Matcher: &types.Matcher{HttpCode: aws.String("200")}}
	if healthCheckDiffers(&v1alpha1.HealthCheck{IntervalSeconds: aws.Int32(30)}, got) {
		t.Error("a matching interval differs")
	}
	if !healthCheckDiffers(&v1alpha1.HealthCheck{Path: "/healthz"}, got) {
		t.Error("another path does not differ")
	}
	if !healthCheckDiffers(&v1alpha1.HealthCheck{Matcher: "200-299"}, got) {
		t.Error("another matcher does not differ")
	}
	if healthCheckDiffers(nil, got) {
		t.Error("no health check in the spec differs")
	}
}
