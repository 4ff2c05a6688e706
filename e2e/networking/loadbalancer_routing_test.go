package networking_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	elbtypes "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	computev1 "github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// rulesOf returns the rules of a listener other than its default rule, by priority.
func (h *harness) rulesOf(t *testing.T, listener string) map[string]elbtypes.Rule {
	t.Helper()
	out, err := h.elb.DescribeRules(context.Background(), &elb.DescribeRulesInput{ListenerArn: aws.String(listener)})
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]elbtypes.Rule{}
	for _, r := range out.Rules {
		if !aws.ToBool(r.IsDefault) {
			rules[aws.ToString(r.Priority)] = r
		}
	}
	return rules
}

// registered returns the targets of a target group that are not draining, as "id" or "id:port".
func (h *harness) registered(t *testing.T, tg string) []string {
	t.Helper()
	out, err := h.elb.DescribeTargetHealth(context.Background(), &elb.DescribeTargetHealthInput{TargetGroupArn: aws.String(tg)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range out.TargetHealthDescriptions {
		if d.TargetHealth.State != elbtypes.TargetHealthStateEnumDraining {
			ids = append(ids, aws.ToString(d.Target.Id))
		}
	}
	slices.Sort(ids)
	return ids
}

// groupStatus returns the status of the target group name.
func groupStatus(b *v1alpha1.ALB, name string) v1alpha1.TargetGroupStatus {
	for _, g := range b.Status.TargetGroups {
		if g.Name == name {
			return g
		}
	}
	return v1alpha1.TargetGroupStatus{}
}

// listenerStatus returns the status of the listener on port.
func listenerStatus(b *v1alpha1.ALB, port int32) v1alpha1.ListenerStatus {
	for _, l := range b.Status.Listeners {
		if l.Port == port {
			return l
		}
	}
	return v1alpha1.ListenerStatus{}
}

// pathOf returns the path patterns of a rule.
func pathOf(r elbtypes.Rule) string {
	for _, c := range r.Conditions {
		if c.PathPatternConfig != nil {
			return strings.Join(c.PathPatternConfig.Values, ",")
		}
	}
	return ""
}

// TestLoadBalancerRulesAndTargets applies the load balancer example and checks its listener
// rules (a path to the ECS service's group, a host answered with a fixed response) and its
// instance target (by reference to an EC2Instance, with its health in status); then swaps two
// priorities (one SetRulePriorities call and nothing else), reverts a rule changed in AWS,
// removes a rule, and registers and deregisters targets as a set, leaving alone the targets of
// a group whose spec lists none.
func TestLoadBalancerRulesAndTargets(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()
	h.apply(t, "load-balancers.yaml", ns)

	alb := kubetest.WaitReady(t, h.c, &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "storefront"}})
	web, app := groupStatus(alb, "storefront-web"), groupStatus(alb, "storefront-app")
	https := listenerStatus(alb, 443)
	if len(https.Rules) != 2 || https.Rules[0].Priority != 10 || https.Rules[1].Priority != 20 {
		t.Fatalf("listener 443 rules in status: %+v", https.Rules)
	}
	rules := h.rulesOf(t, https.ARN)
	api, status := rules["10"], rules["20"]
	if pathOf(api) != "/api/*" || aws.ToString(api.Actions[0].TargetGroupArn) != app.ARN || aws.ToString(api.RuleArn) != https.Rules[0].ARN {
		t.Errorf("rule 10: %+v, want /api/* to %s", api, app.ARN)
	}
	if status.Actions[0].Type != elbtypes.ActionTypeEnumFixedResponse || aws.ToString(status.Actions[0].FixedResponseConfig.MessageBody) != "ok" ||
		aws.ToString(status.Conditions[0].Field) != "host-header" {
		t.Errorf("rule 20: %+v", status)
	}
	instance := kubetest.WaitReady(t, h.c, &computev1.EC2Instance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "storefront-web-1"}})
	id := instance.Status.InstanceID
	if got := h.registered(t, web.ARN); !slices.Equal(got, []string{id}) {
		t.Errorf("storefront-web targets %v, want the instance %s", got, id)
	}
	// Health is read at each sync: the target is initial, then healthy.
	kubetest.ResyncUntil(t, h.c, alb, "the target healthy in status", func() bool {
		if err := h.c.Get(ctx, client.ObjectKeyFromObject(alb), alb); err != nil {
			t.Fatal(err)
		}
		g := groupStatus(alb, "storefront-web")
		return len(g.Targets) == 1 && g.Targets[0].ID == id && g.Targets[0].Port == 80 && g.Targets[0].State == "healthy"
	})
	if groupStatus(alb, "storefront-app").Targets != nil {
		t.Errorf("a group whose spec lists no targets reports targets: %+v", groupStatus(alb, "storefront-app"))
	}
	// Another registrar's target (ECS's, in a group whose spec lists none) stays.
	if _, err := h.elb.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: aws.String(app.ARN),
		Targets: []elbtypes.TargetDescription{{Id: aws.String("10.20.1.50")}}}); err != nil {
		t.Fatal(err)
	}

	// A swap of the two rules' priorities is one SetRulePriorities call.
	h.emu.Calls.Reset()
	kubetest.Update(t, h.c, alb, func(b *v1alpha1.ALB) {
		rules := b.Spec.Listeners[1].Rules
		rules[0].Priority, rules[1].Priority = 20, 10
		slices.Reverse(rules)
	})
	alb = waitApplied(t, h, alb)
	calls := kubetest.Calls(h.emu.Calls.Snapshot(), "ELBv2")
	if calls["SetRulePriorities"] != 1 || calls["ModifyRule"]+calls["CreateRule"]+calls["DeleteRule"] != 0 {
		t.Errorf("a priority swap made %v", calls)
	}
	if rules := h.rulesOf(t, https.ARN); aws.ToString(rules["20"].RuleArn) != aws.ToString(api.RuleArn) || aws.ToString(rules["10"].RuleArn) != aws.ToString(status.RuleArn) {
		t.Errorf("after the swap: rule 10 %s, rule 20 %s", aws.ToString(rules["10"].RuleArn), aws.ToString(rules["20"].RuleArn))
	}

	// A rule changed in AWS is brought back.
	if _, err := h.elb.ModifyRule(ctx, &elb.ModifyRuleInput{RuleArn: api.RuleArn, Conditions: []elbtypes.RuleCondition{{Field: aws.String("path-pattern"),
		PathPatternConfig: &elbtypes.PathPatternConditionConfig{Values: []string{"/other/*"}}}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, alb, "the rule reverted", func() bool { return pathOf(h.rulesOf(t, https.ARN)["20"]) == "/api/*" })
	kubetest.WaitEvent(t, h.c, alb, "DriftDetected", "rules")

	// A rule fewer, and the targets as a set: an instance by id joins, the referenced one goes.
	other, err := h.ec2.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String("ami-0c55b159cbfafe1f0"), InstanceType: ec2types.InstanceTypeT3Micro,
		MinCount: aws.Int32(1), MaxCount: aws.Int32(1), SubnetId: aws.String(instance.Status.SubnetID)})
	if err != nil {
		t.Fatal(err)
	}
	second := aws.ToString(other.Instances[0].InstanceId)
	h.waitRunning(t, second)
	kubetest.Update(t, h.c, alb, func(b *v1alpha1.ALB) {
		b.Spec.Listeners[1].Rules = b.Spec.Listeners[1].Rules[1:]
		b.Spec.TargetGroups[0].Targets = []v1alpha1.Target{{InstanceID: second, Port: aws.Int32(8080)}}
	})
	alb = waitApplied(t, h, alb)
	if rules := h.rulesOf(t, https.ARN); len(rules) != 1 || pathOf(rules["20"]) != "/api/*" {
		t.Errorf("rules after removing one: %v", rules)
	}
	if got := h.registered(t, web.ARN); !slices.Equal(got, []string{second}) {
		t.Errorf("storefront-web targets %v, want only %s", got, second)
	}
	if got := h.registered(t, app.ARN); !slices.Equal(got, []string{"10.20.1.50"}) {
		t.Errorf("the ECS group's targets %v, want the one registered outside", got)
	}
	got := groupStatus(alb, "storefront-web").Targets
	if !slices.ContainsFunc(got, func(s v1alpha1.TargetHealthStatus) bool { return s.ID == second && s.Port == 8080 }) ||
		!slices.ContainsFunc(got, func(s v1alpha1.TargetHealthStatus) bool { return s.ID == id && s.State == "draining" }) {
		t.Errorf("target status %+v, want %s on 8080 and %s draining", got, second, id)
	}
	kubetest.Delete(t, h.c, alb)
}

// waitRunning waits until the instance id is running.
func (h *harness) waitRunning(t *testing.T, id string) {
	t.Helper()
	for deadline := time.Now().Add(kubetest.Timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		out, err := h.ec2.DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{InstanceIds: []string{id}})
		if err == nil && len(out.Reservations) > 0 && out.Reservations[0].Instances[0].State.Name == ec2types.InstanceStateNameRunning {
			return
		}
	}
	t.Fatalf("instance %s is not running", id)
}

// lambdaFunction makes a LambdaFunction named name in ns (code in the emulated S3) and waits
// until it is Ready.
func (h *harness) lambdaFunction(t *testing.T, ns, name string) *computev1.LambdaFunction {
	t.Helper()
	cfg := h.env.AWSConfig(testAccessKey, testSecretKey)
	awsfixture.LambdaCode(t, s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), "alb-lambda-code", "handler.zip")
	f := &computev1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	f.Spec.ProviderRef.Name, f.Spec.FunctionName = "aws", ns+"-"+name
	f.Spec.Runtime, f.Spec.Handler = "python3.12", "index.handler"
	f.Spec.CodeS3Bucket, f.Spec.CodeS3Key = "alb-lambda-code", "handler.zip"
	f.Spec.RoleARN = "arn:aws:iam::000000000000:role/lambda-execution-role"
	kubetest.Create(t, h.c, f)
	return kubetest.WaitReady(t, h.c, f)
}

// lambdaALB returns an ALB in subnets whose listener forwards to a Lambda target group with
// target.
func lambdaALB(ns, name string, subnets []string, target v1alpha1.Target) *v1alpha1.ALB {
	b := &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	b.Spec.ProviderRef.Name, b.Spec.SubnetIDs = "aws", subnets
	b.Spec.TargetGroups = []v1alpha1.TargetGroup{{Name: name + "-fn", TargetType: "lambda", Targets: []v1alpha1.Target{target}}}
	b.Spec.Listeners = []v1alpha1.Listener{{Port: 80, Protocol: "HTTP", DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: name + "-fn"}}}}
	return b
}

// statements returns the Sid, principal service and source ARN of each statement of a
// function's resource policy.
func statements(t *testing.T, c *lambda.Client, fn string) map[string][2]string {
	t.Helper()
	out, err := c.GetPolicy(context.Background(), &lambda.GetPolicyInput{FunctionName: aws.String(fn)})
	if err != nil {
		if strings.Contains(err.Error(), "ResourceNotFoundException") {
			return map[string][2]string{}
		}
		t.Fatal(err)
	}
	var doc struct {
		Statement []struct {
			Sid       string
			Principal struct{ Service string }
			Condition map[string]map[string]string
		}
	}
	if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, s := range doc.Statement {
		got[s.Sid] = [2]string{s.Principal.Service, s.Condition["ArnLike"]["AWS:SourceArn"]}
	}
	return got
}

// TestLoadBalancerLambdaTarget registers a LambdaFunction by reference: the function's policy
// gets the statement that lets the target group invoke it before the registration, and loses
// it when the target goes. A load balancer of another namespace that names the function by ARN
// is refused before any write.
func TestLoadBalancerLambdaTarget(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	fns := lambda.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
	vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")
	subnets := []string{h.subnet(t, ns, "a", vpc, "10.0.1.0/24", "us-east-1a"), h.subnet(t, ns, "b", vpc, "10.0.2.0/24", "us-east-1b")}
	fn := h.lambdaFunction(t, ns, "handler").Status.FunctionARN

	alb := lambdaALB(ns, "serverless", subnets, v1alpha1.Target{LambdaRef: &shared.Reference{Name: "handler"}})
	kubetest.Create(t, h.c, alb)
	alb = waitApplied(t, h, alb)
	tg := groupStatus(alb, "serverless-fn").ARN
	if got := h.registered(t, tg); !slices.Equal(got, []string{fn}) {
		t.Errorf("Lambda group targets %v, want %s", got, fn)
	}
	sid := "infra-operator-elbv2-serverless-fn-" + tg[strings.LastIndex(tg, "/")+1:]
	if got := statements(t, fns, fn)[sid]; got != [2]string{"elasticloadbalancing.amazonaws.com", tg} {
		t.Errorf("statement %s = %v, want elasticloadbalancing.amazonaws.com from %s", sid, got, tg)
	}
	if g := alb.Status.InvokeGrants; len(g) != 1 || g[0].FunctionARN != fn || g[0].TargetGroupARN != tg {
		t.Errorf("status.invokeGrants = %+v", g)
	}

	// A hostile namespace names the function by ARN: refused, nothing written into it.
	hostile := h.env.Namespace(t)
	h.provider(t, hostile, "aws")
	h.emu.Calls.Reset()
	steal := lambdaALB(hostile, "thief", subnets, v1alpha1.Target{LambdaFunctionARN: fn})
	kubetest.Create(t, h.c, steal)
	kubetest.WaitCondition(t, h.c, steal, "Synced", "False", "ForeignWriteNotAllowed")
	if calls := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda"); calls["AddPermission"] != 0 {
		t.Errorf("the hostile load balancer made %d AddPermission calls", calls["AddPermission"])
	}
	if len(statements(t, fns, fn)) != 1 {
		t.Errorf("the function's policy changed: %v", statements(t, fns, fn))
	}
	kubetest.Delete(t, h.c, steal)

	// The target goes: deregistered, and the statement with it.
	kubetest.Update(t, h.c, alb, func(b *v1alpha1.ALB) { b.Spec.TargetGroups[0].Targets = []v1alpha1.Target{} })
	alb = waitApplied(t, h, alb)
	if got := h.registered(t, tg); len(got) != 0 {
		t.Errorf("Lambda group targets after removal: %v", got)
	}
	if got := statements(t, fns, fn); len(got) != 0 || len(alb.Status.InvokeGrants) != 0 {
		t.Errorf("after the target went: statements %v, invokeGrants %+v", got, alb.Status.InvokeGrants)
	}
	kubetest.Delete(t, h.c, alb)
}
