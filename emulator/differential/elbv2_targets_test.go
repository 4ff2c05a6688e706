package differential

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// registering is one side of the comparison of what RegisterTargets checks in EC2 and Lambda:
// its clients, and what the setup made (an instance target group, two Lambda target groups, a
// running and a stopped instance, a function without permission and one that lets the second
// Lambda group invoke it).
type registering struct {
	ec2                 *ec2.Client
	elb                 *elb.Client
	lambda              *lambda.Client
	settle              func()
	instances           string
	closedTG, openTG    string
	running, stopped    string
	closedFn, permitted string
}

// setup makes the groups, instances and functions on one side.
func (c *registering) setup(t *testing.T, archive []byte) {
	t.Helper()
	ctx := context.Background()
	vpc, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	subnet, err := c.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, AvailabilityZone: aws.String("us-east-1a"), CidrBlock: aws.String("10.0.1.0/24")})
	if err != nil {
		t.Fatal(err)
	}
	tg, err := c.elb.CreateTargetGroup(ctx, &elb.CreateTargetGroupInput{Name: aws.String("diff-instances"), Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), VpcId: vpc.Vpc.VpcId})
	if err != nil {
		t.Fatal(err)
	}
	c.instances = aws.ToString(tg.TargetGroups[0].TargetGroupArn)
	for _, g := range []struct {
		name string
		arn  *string
	}{{"diff-closed", &c.closedTG}, {"diff-open", &c.openTG}} {
		out, err := c.elb.CreateTargetGroup(ctx, &elb.CreateTargetGroupInput{Name: aws.String(g.name), TargetType: types.TargetTypeEnumLambda})
		if err != nil {
			t.Fatal(err)
		}
		*g.arn = aws.ToString(out.TargetGroups[0].TargetGroupArn)
	}
	run := func() string {
		out, err := c.ec2.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String("ami-12c6146b"), InstanceType: ec2types.InstanceTypeT3Micro,
			MinCount: aws.Int32(1), MaxCount: aws.Int32(1), SubnetId: subnet.Subnet.SubnetId})
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(out.Instances[0].InstanceId)
	}
	c.running, c.stopped = run(), run()
	c.settle()
	if _, err := c.ec2.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{c.stopped}}); err != nil {
		t.Fatal(err)
	}
	c.settle()
	for _, f := range []struct {
		name string
		arn  *string
		tg   string
	}{{"diff-closed", &c.closedFn, ""}, {"diff-open", &c.permitted, c.openTG}} {
		out, err := c.lambda.CreateFunction(ctx, pythonFunction(f.name, &lambdatypes.FunctionCode{ZipFile: archive}))
		if err != nil {
			t.Fatal(err)
		}
		*f.arn = aws.ToString(out.FunctionArn)
		if f.tg == "" {
			continue
		}
		if _, err := c.lambda.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: aws.String(f.name), StatementId: aws.String("elb"),
			Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("elasticloadbalancing.amazonaws.com"), SourceArn: aws.String(f.tg)}); err != nil {
			t.Fatal(err)
		}
	}
}

// register is a step that registers one target, named by pick, in the group pick names.
func register(pick func(c *registering) (tg, id string)) func(c *registering) outcome {
	return func(c *registering) outcome {
		tg, id := pick(c)
		_, err := c.elb.RegisterTargets(context.Background(), &elb.RegisterTargetsInput{TargetGroupArn: aws.String(tg), Targets: []types.TargetDescription{{Id: aws.String(id)}}})
		return observe(err, nil)
	}
}

func targetSteps() []step[*registering] {
	return []step[*registering]{
		{"RegisterUnknownInstance", register(func(c *registering) (string, string) { return c.instances, "i-0123456789abcdef0" })},
		{"RegisterStoppedInstance", register(func(c *registering) (string, string) { return c.instances, c.stopped })},
		{"RegisterRunningInstance", register(func(c *registering) (string, string) { return c.instances, c.running })},
		{"RegisterFunctionWithoutPermission", register(func(c *registering) (string, string) { return c.closedTG, c.closedFn })},
		{"RegisterUnknownFunction", register(func(c *registering) (string, string) {
			return c.closedTG, "arn:aws:lambda:us-east-1:123456789012:function:diff-missing"
		})},
		{"RegisterPermittedFunction", register(func(c *registering) (string, string) { return c.openTG, c.permitted })},
	}
}

// TestELBv2TargetsAgainstMoto compares what RegisterTargets checks of instances and Lambda
// functions with moto.
func TestELBv2TargetsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	createMotoRole(t, peerURL)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	side := func(url string, settle func()) *registering {
		cfg := sdkConfig(t, url)
		return &registering{ec2: ec2.NewFromConfig(cfg), elb: elb.NewFromConfig(cfg), lambda: lambda.NewFromConfig(cfg), settle: settle}
	}
	emuSide, peerSide := side(emu.URL, func() { e.Clock.Advance(time.Minute) }), side(peerURL, func() {})
	archive := lambdaArchive(t)
	emuSide.setup(t, archive)
	peerSide.setup(t, archive)
	compare(t, emuSide, peerSide, "moto "+motoVersion, targetSteps(), map[string]string{
		"RegisterUnknownInstance": "moto registers an instance id its EC2 does not hold; AWS answers InvalidTarget (the specified target " +
			"does not exist, RegisterTargets Errors)",
		"RegisterFunctionWithoutPermission": "moto registers a function whose policy does not let elasticloadbalancing.amazonaws.com " +
			"invoke it; AWS answers AccessDenied (elasticloadbalancing principal does not have permission to invoke ... from target group ...)",
		"RegisterUnknownFunction": "moto registers a function ARN its Lambda does not hold; AWS answers InvalidTarget",
	})
}
