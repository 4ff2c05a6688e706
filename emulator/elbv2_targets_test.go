package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/emulator"
)

// runningInstance launches an instance in subnet and lets it reach running on e's clock.
func runningInstance(t *testing.T, e *emulator.Server, cfg aws.Config, subnet string) string {
	t.Helper()
	id := aws.ToString(runInstance(t, ec2.NewFromConfig(cfg), launchIn(subnet)).InstanceId)
	e.Clock.Advance(time.Minute)
	return id
}

// invokableFunction creates the function name and, when tg is not empty, lets Elastic Load
// Balancing invoke it from target group tg; it returns the function's ARN.
func invokableFunction(t *testing.T, cfg aws.Config, name, tg string) string {
	t.Helper()
	c := lambda.NewFromConfig(cfg)
	out, err := c.CreateFunction(context.Background(), zipFunction(t, name))
	if err != nil {
		t.Fatal(err)
	}
	if tg != "" {
		if _, err := c.AddPermission(context.Background(), &lambda.AddPermissionInput{FunctionName: aws.String(name), StatementId: aws.String("elb"),
			Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("elasticloadbalancing.amazonaws.com"), SourceArn: aws.String(tg)}); err != nil {
			t.Fatal(err)
		}
	}
	return aws.ToString(out.FunctionArn)
}

// healthOf returns the state and reason of each target of a group, by id.
func healthOf(t *testing.T, c *elb.Client, tg *string) map[string][2]string {
	t.Helper()
	out, err := c.DescribeTargetHealth(context.Background(), &elb.DescribeTargetHealthInput{TargetGroupArn: tg})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, d := range out.TargetHealthDescriptions {
		got[aws.ToString(d.Target.Id)] = [2]string{string(d.TargetHealth.State), string(d.TargetHealth.Reason)}
	}
	return got
}

// TestELBv2TargetHealthLifecycle registers instance targets and follows their health on the
// simulation clock: unused while no listener forwards to the group, initial then healthy once
// one does, draining for the deregistration delay after deregistration, then gone.
func TestELBv2TargetHealthLifecycle(t *testing.T) {
	e, cfg, n := elbWorld(t)
	c := elb.NewFromConfig(cfg)
	ctx := context.Background()
	tg := createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn
	if _, err := c.ModifyTargetGroupAttributes(ctx, &elb.ModifyTargetGroupAttributesInput{TargetGroupArn: tg,
		Attributes: []types.TargetGroupAttribute{tgAttr("deregistration_delay.timeout_seconds", "60")}}); err != nil {
		t.Fatal(err)
	}
	a, b := runningInstance(t, e, cfg, n.subnets[0]), runningInstance(t, e, cfg, n.subnets[1])
	if _, err := c.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: tg, Targets: []types.TargetDescription{{Id: aws.String(a)}, {Id: aws.String(b), Port: aws.Int32(9090)}}}); err != nil {
		t.Fatal(err)
	}
	if got := healthOf(t, c, tg); got[a] != [2]string{"unused", "Target.NotInUse"} || len(got) != 2 {
		t.Errorf("health without a listener = %v; want unused, Target.NotInUse", got)
	}
	lb := createLB(t, c, alb("targets", n)).LoadBalancerArn
	if _, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), DefaultActions: forward(tg)}); err != nil {
		t.Fatal(err)
	}
	if got := healthOf(t, c, tg); got[a] != [2]string{"initial", "Elb.RegistrationInProgress"} {
		t.Errorf("health just after registration = %v; want initial, Elb.RegistrationInProgress", got)
	}
	e.Clock.Advance(3 * time.Second)
	if got := healthOf(t, c, tg); got[a] != [2]string{"healthy", ""} || got[b] != [2]string{"healthy", ""} {
		t.Errorf("health after the transition = %v; want healthy", got)
	}
	out, err := c.DescribeTargetHealth(ctx, &elb.DescribeTargetHealthInput{TargetGroupArn: tg, Targets: []types.TargetDescription{{Id: aws.String(b), Port: aws.Int32(9090)}}})
	if err != nil || len(out.TargetHealthDescriptions) != 1 || aws.ToString(out.TargetHealthDescriptions[0].HealthCheckPort) != "9090" ||
		aws.ToInt32(out.TargetHealthDescriptions[0].Target.Port) != 9090 {
		t.Errorf("DescribeTargetHealth of one target = %+v, %v; want port 9090 checked on 9090", out, err)
	}
	if _, err := c.DeregisterTargets(ctx, &elb.DeregisterTargetsInput{TargetGroupArn: tg, Targets: []types.TargetDescription{{Id: aws.String(a)}}}); err != nil {
		t.Fatal(err)
	}
	if got := healthOf(t, c, tg); got[a] != [2]string{"draining", "Target.DeregistrationInProgress"} {
		t.Errorf("health after deregistration = %v; want draining, Target.DeregistrationInProgress", got)
	}
	if _, err := c.DeregisterTargets(ctx, &elb.DeregisterTargetsInput{TargetGroupArn: tg, Targets: []types.TargetDescription{{Id: aws.String(a)}}}); errorCode(err) != "InvalidTarget" {
		t.Errorf("DeregisterTargets of a draining target: %v, want InvalidTarget", err)
	}
	e.Clock.Advance(61 * time.Second)
	if got := healthOf(t, c, tg); len(got) != 1 || got[b][0] != "healthy" {
		t.Errorf("health after the deregistration delay = %v; want only %s", got, b)
	}
	if _, err := c.ModifyTargetGroup(ctx, &elb.ModifyTargetGroupInput{TargetGroupArn: tg, HealthCheckEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if got := healthOf(t, c, tg); got[b] != [2]string{"unavailable", "Target.HealthCheckDisabled"} {
		t.Errorf("health with checks disabled = %v; want unavailable, Target.HealthCheckDisabled", got)
	}
}

// TestELBv2RegisterTargetsErrors checks the targets each target type accepts and the limits.
func TestELBv2RegisterTargetsErrors(t *testing.T) {
	_, cfg, n := elbWorld(t)
	c := elb.NewFromConfig(cfg)
	ctx := context.Background()
	instances := createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn
	ips := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("ips"), Protocol: types.ProtocolEnumTcp, Port: aws.Int32(443), VpcId: aws.String(n.vpc), TargetType: types.TargetTypeEnumIp}).TargetGroupArn
	fn := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("fn"), TargetType: types.TargetTypeEnumLambda}).TargetGroupArn
	lambdaTarget := invokableFunction(t, cfg, "handler", aws.ToString(fn))
	invokableFunction(t, cfg, "handler2", aws.ToString(fn))
	for name, tc := range map[string]struct {
		tg      *string
		targets []types.TargetDescription
		code    string
	}{
		"NotAnInstance":  {instances, []types.TargetDescription{{Id: aws.String("10.0.1.5")}}, "InvalidTarget"},
		"PortOutOfRange": {instances, []types.TargetDescription{{Id: aws.String("i-0123456789abcdef0"), Port: aws.Int32(70000)}}, "ValidationError"},
		"NotAnIP":        {ips, []types.TargetDescription{{Id: aws.String("i-0123456789abcdef0")}}, "InvalidTarget"},
		"BadZone":        {ips, []types.TargetDescription{{Id: aws.String("192.168.0.1"), AvailabilityZone: aws.String("eu-west-1a")}}, "ValidationError"},
		"NotAFunction":   {fn, []types.TargetDescription{{Id: aws.String("i-0123456789abcdef0")}}, "InvalidTarget"},
		"LambdaPort":     {fn, []types.TargetDescription{{Id: aws.String(lambdaTarget), Port: aws.Int32(80)}}, "ValidationError"},
		"TwoFunctions":   {fn, []types.TargetDescription{{Id: aws.String(lambdaTarget)}, {Id: aws.String(lambdaTarget + "2")}}, "TooManyTargets"},
		"UnknownGroup":   {aws.String(aws.ToString(instances) + "0"), []types.TargetDescription{{Id: aws.String("i-0123456789abcdef0")}}, "TargetGroupNotFound"},
		"NoTargets":      {instances, []types.TargetDescription{}, "ValidationError"},
	} {
		if _, err := c.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: tc.tg, Targets: tc.targets}); errorCode(err) != tc.code {
			t.Errorf("%s: RegisterTargets = %v, want %s", name, err, tc.code)
		}
	}
	// An IP address outside the VPC registers with zone "all"; a Lambda group takes one function.
	if _, err := c.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: ips, Targets: []types.TargetDescription{{Id: aws.String("192.168.0.1"), AvailabilityZone: aws.String("all")}}}); err != nil {
		t.Errorf("RegisterTargets of an outside address in zone all: %v", err)
	}
	if _, err := c.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: fn, Targets: []types.TargetDescription{{Id: aws.String(lambdaTarget)}}}); err != nil {
		t.Fatal(err)
	}
	if got := healthOf(t, c, fn); got[lambdaTarget][0] != "unused" {
		t.Errorf("Lambda target without a listener = %v; want unused", got)
	}
	if _, err := c.DeregisterTargets(ctx, &elb.DeregisterTargetsInput{TargetGroupArn: instances, Targets: []types.TargetDescription{{Id: aws.String("i-0123456789abcdef0")}}}); errorCode(err) != "InvalidTarget" {
		t.Errorf("DeregisterTargets of an unregistered target: %v, want InvalidTarget", err)
	}
}

// TestELBv2RegisterTargetsChecksOtherServices checks what RegisterTargets asks the emulated EC2
// and Lambda: an instance must exist, run and be in the group's VPC; a function must exist and
// its policy let elasticloadbalancing.amazonaws.com invoke it from this very target group.
func TestELBv2RegisterTargetsChecksOtherServices(t *testing.T) {
	e, cfg, n := elbWorld(t)
	c, compute := elb.NewFromConfig(cfg), ec2.NewFromConfig(cfg)
	ctx := context.Background()
	instances := createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn
	fn := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("fn"), TargetType: types.TargetTypeEnumLambda}).TargetGroupArn
	other := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("other-fn"), TargetType: types.TargetTypeEnumLambda}).TargetGroupArn
	running := runningInstance(t, e, cfg, n.subnets[0])
	elsewhere := runningInstance(t, e, cfg, n.otherSubnet)
	stopped := runningInstance(t, e, cfg, n.subnets[1])
	if _, err := compute.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{stopped}}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	unpermitted := invokableFunction(t, cfg, "closed", "")
	forOther := invokableFunction(t, cfg, "for-other", aws.ToString(other))
	permitted := invokableFunction(t, cfg, "open", aws.ToString(fn))
	missing := "arn:aws:lambda:us-east-1:123456789012:function:missing"
	for name, tc := range map[string]struct {
		tg      *string
		id      string
		code    string
		message string
	}{
		"UnknownInstance": {instances, "i-0123456789abcdef0", "InvalidTarget", "The following targets are not valid: 'i-0123456789abcdef0'"},
		"StoppedInstance": {instances, stopped, "InvalidTarget", "The following targets are not in a running state and cannot be registered: '" + stopped + "'"},
		"OtherVPC":        {instances, elsewhere, "InvalidTarget", "The following targets are not in the target group VPC '" + n.vpc + "': '" + elsewhere + "'"},
		"UnknownFunction": {fn, missing, "InvalidTarget", "The following targets are not valid: '" + missing + "'"},
		"NoPermission": {fn, unpermitted, "AccessDenied",
			"elasticloadbalancing principal does not have permission to invoke " + unpermitted + " from target group " + aws.ToString(fn)},
		"OtherSource": {fn, forOther, "AccessDenied",
			"elasticloadbalancing principal does not have permission to invoke " + forOther + " from target group " + aws.ToString(fn)},
	} {
		_, err := c.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: tc.tg, Targets: []types.TargetDescription{{Id: aws.String(tc.id)}}})
		if errorCode(err) != tc.code || !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: RegisterTargets = %v, want %s: %s", name, err, tc.code, tc.message)
		}
	}
	for tg, id := range map[*string]string{instances: running, fn: permitted} {
		if _, err := c.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: tg, Targets: []types.TargetDescription{{Id: aws.String(id)}}}); err != nil {
			t.Errorf("RegisterTargets of %s: %v", id, err)
		}
	}
}
