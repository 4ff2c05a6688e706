package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// compute is one side's EC2 client, the network its steps launch into and the instances they
// launched. settle lets the side's lifecycles finish: the emulator's clock moves past its
// transitions, while moto changes states at once and has nothing to wait for.
type compute struct {
	ec2                   *ec2.Client
	settle                func()
	subnet, group, abroad string  // abroad: a group in another VPC
	instance, reservation *string // the instance launched with a ClientToken, and its reservation
	guarded               *string // an instance with stop or termination protection
}

// webLaunch is the RunInstances request of the instance the steps follow.
func webLaunch(c *compute) *ec2.RunInstancesInput {
	return &ec2.RunInstancesInput{ImageId: aws.String("ami-0123456789abcdef0"), InstanceType: types.InstanceTypeT3Micro, MinCount: aws.Int32(1),
		MaxCount: aws.Int32(1), SubnetId: aws.String(c.subnet), SecurityGroupIds: []string{c.group}, KeyName: aws.String("deploy"),
		ClientToken: aws.String("diff-web-1"), TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeInstance,
			Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("web-1")}}}}}
}

// instanceFields are what the steps compare of an instance.
func instanceFields(c *compute, i types.Instance) map[string]string {
	f := map[string]string{"state": string(i.State.Name), "code": strconv.Itoa(int(aws.ToInt32(i.State.Code))), "type": string(i.InstanceType),
		"privateIp": aws.ToString(i.PrivateIpAddress), "inSubnet": strconv.FormatBool(aws.ToString(i.SubnetId) == c.subnet),
		"key": aws.ToString(i.KeyName), "groups": strconv.Itoa(len(i.SecurityGroups))}
	for _, t := range i.Tags {
		f["tag:"+aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return f
}

// filter is one EC2 filter.
func filter(name string, values ...string) types.Filter {
	return types.Filter{Name: aws.String(name), Values: values}
}

// computeSteps is the sequence both sides run: a network, an instance launched with a
// ClientToken and taken through stop, start, an instance type change and termination, and the
// errors AWS documents on the way.
func computeSteps() []step[*compute] {
	ctx := context.Background()
	ids := func(id *string) []string { return []string{aws.ToString(id)} }
	describe := func(c *compute) outcome {
		c.settle()
		out, err := c.ec2.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: ids(c.instance)})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, instanceFields(c, out.Reservations[0].Instances[0]))
	}
	// previous is a state change as both sides define it: the state the instance left (moto
	// moves to the next state at once, AWS through pending, stopping or shutting-down).
	previous := func(list []types.InstanceStateChange) outcome {
		return observe(nil, map[string]string{"previous": string(list[0].PreviousState.Name), "previousCode": strconv.Itoa(int(aws.ToInt32(list[0].PreviousState.Code)))})
	}
	run := func(change func(c *compute, in *ec2.RunInstancesInput)) func(c *compute) outcome {
		return func(c *compute) outcome {
			in := webLaunch(c)
			in.ClientToken = nil
			change(c, in)
			_, err := c.ec2.RunInstances(ctx, in)
			return observe(err, nil)
		}
	}
	start := func(c *compute) outcome {
		out, err := c.ec2.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: ids(c.instance)})
		if err != nil {
			return observe(err, nil)
		}
		return previous(out.StartingInstances)
	}
	// count counts the instances filters find; "<instance>" and "<subnet>" stand for the side's own.
	count := func(filters ...types.Filter) func(c *compute) outcome {
		return func(c *compute) outcome {
			var mine []types.Filter
			for _, f := range filters {
				values := map[string]string{"<instance>": aws.ToString(c.instance), "<subnet>": c.subnet}
				if v, ok := values[f.Values[0]]; ok {
					f.Values = []string{v}
				}
				mine = append(mine, f)
			}
			out, err := c.ec2.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: mine})
			if err != nil {
				return observe(err, nil)
			}
			n := 0
			for _, r := range out.Reservations {
				n += len(r.Instances)
			}
			return observe(nil, map[string]string{"instances": strconv.Itoa(n)})
		}
	}
	runGuarded := func(protect func(in *ec2.RunInstancesInput)) func(c *compute) outcome {
		return func(c *compute) outcome {
			in := webLaunch(c)
			in.ClientToken = nil
			protect(in)
			out, err := c.ec2.RunInstances(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			c.guarded = out.Instances[0].InstanceId
			c.settle()
			return observe(nil, nil)
		}
	}
	terminateGuarded := func(c *compute) outcome {
		_, err := c.ec2.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: ids(c.guarded)})
		return observe(err, nil)
	}
	modifyType := func(c *compute) outcome {
		_, err := c.ec2.ModifyInstanceAttribute(ctx, &ec2.ModifyInstanceAttributeInput{InstanceId: c.instance, InstanceType: &types.AttributeValue{Value: aws.String("m5.large")}})
		return observe(err, nil)
	}
	return []step[*compute]{
		{"CreateNetwork", func(c *compute) outcome {
			vpc, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			subnet, err := c.ec2.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String("10.0.1.0/24")})
			if err != nil {
				return observe(err, nil)
			}
			group, err := c.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: vpc.Vpc.VpcId, GroupName: aws.String("web"), Description: aws.String("web tier")})
			if err != nil {
				return observe(err, nil)
			}
			other, err := c.ec2.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.1.0.0/16")})
			if err != nil {
				return observe(err, nil)
			}
			abroad, err := c.ec2.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{VpcId: other.Vpc.VpcId, GroupName: aws.String("abroad"), Description: aws.String("elsewhere")})
			if err != nil {
				return observe(err, nil)
			}
			c.subnet, c.group, c.abroad = aws.ToString(subnet.Subnet.SubnetId), aws.ToString(group.GroupId), aws.ToString(abroad.GroupId)
			return observe(nil, nil)
		}},
		{"RunWithClientToken", func(c *compute) outcome {
			out, err := c.ec2.RunInstances(ctx, webLaunch(c))
			if err != nil {
				return observe(err, nil)
			}
			c.instance, c.reservation = out.Instances[0].InstanceId, out.ReservationId
			f := instanceFields(c, out.Instances[0])
			delete(f, "state") // AWS answers pending; whether the peer does is the peer's own business.
			delete(f, "code")
			f["instances"] = strconv.Itoa(len(out.Instances))
			return observe(nil, f)
		}},
		{"RepeatClientToken", func(c *compute) outcome {
			out, err := c.ec2.RunInstances(ctx, webLaunch(c))
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"sameReservation": strconv.FormatBool(aws.ToString(out.ReservationId) == aws.ToString(c.reservation))})
		}},
		{"ReuseClientTokenOtherType", func(c *compute) outcome {
			in := webLaunch(c)
			in.InstanceType = types.InstanceTypeM5Large
			_, err := c.ec2.RunInstances(ctx, in)
			return observe(err, nil)
		}},
		{"DescribeRunning", describe},
		{"FilterInstances", count(filter("instance-id", "<instance>"), filter("instance-state-name", "running"), filter("subnet-id", "<subnet>"), filter("tag:Name", "web-1"))},
		{"FilterByClientToken", count(filter("client-token", "diff-web-1"))},
		{"ModifyTypeWhileRunning", modifyType},
		{"Stop", func(c *compute) outcome {
			out, err := c.ec2.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: ids(c.instance)})
			if err != nil {
				return observe(err, nil)
			}
			return previous(out.StoppingInstances)
		}},
		{"DescribeStopped", describe},
		{"ModifyTypeWhileStopped", modifyType},
		{"DescribeTypeAttribute", func(c *compute) outcome {
			out, err := c.ec2.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: c.instance, Attribute: types.InstanceAttributeNameInstanceType})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"instanceType": aws.ToString(out.InstanceType.Value)})
		}},
		{"Start", start},
		{"DescribeRestarted", describe},
		{"StartRunning", start},
		{"ModifyMetadataOptions", func(c *compute) outcome {
			out, err := c.ec2.ModifyInstanceMetadataOptions(ctx, &ec2.ModifyInstanceMetadataOptionsInput{InstanceId: c.instance, HttpTokens: types.HttpTokensStateRequired,
				HttpPutResponseHopLimit: aws.Int32(2)})
			if err != nil {
				return observe(err, nil)
			}
			o := out.InstanceMetadataOptions
			return observe(nil, map[string]string{"httpTokens": string(o.HttpTokens), "hops": strconv.Itoa(int(aws.ToInt32(o.HttpPutResponseHopLimit)))})
		}},
		{"RunStopProtected", runGuarded(func(in *ec2.RunInstancesInput) { in.DisableApiStop = aws.Bool(true) })},
		{"StopProtected", func(c *compute) outcome {
			_, err := c.ec2.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: ids(c.guarded)})
			return observe(err, nil)
		}},
		{"ProtectFromTermination", func(c *compute) outcome {
			_, err := c.ec2.ModifyInstanceAttribute(ctx, &ec2.ModifyInstanceAttributeInput{InstanceId: c.guarded, DisableApiTermination: &types.AttributeBooleanValue{Value: aws.Bool(true)}})
			return observe(err, nil)
		}},
		{"TerminateProtected", terminateGuarded},
		{"RunTerminationProtected", runGuarded(func(in *ec2.RunInstancesInput) { in.DisableApiTermination = aws.Bool(true) })},
		{"TerminateProtectedAtLaunch", terminateGuarded},
		{"Terminate", func(c *compute) outcome {
			out, err := c.ec2.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: ids(c.instance)})
			if err != nil {
				return observe(err, nil)
			}
			return previous(out.TerminatingInstances)
		}},
		{"DescribeTerminated", func(c *compute) outcome {
			o := describe(c)
			delete(o.Fields, "privateIp") // AWS shows no interface on a terminated instance; whether its address still shows is the peer's own business.
			return o
		}},
		{"TerminateAgain", func(c *compute) outcome {
			out, err := c.ec2.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: ids(c.instance)})
			if err != nil {
				return observe(err, nil)
			}
			return previous(out.TerminatingInstances)
		}},
		{"StartTerminated", func(c *compute) outcome {
			_, err := c.ec2.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: ids(c.instance)})
			return observe(err, nil)
		}},
		{"StopTerminated", func(c *compute) outcome {
			_, err := c.ec2.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: ids(c.instance)})
			return observe(err, nil)
		}},
		{"RunUnknownSubnet", run(func(_ *compute, in *ec2.RunInstancesInput) { in.SubnetId = aws.String("subnet-0123456789abcdef0") })},
		{"RunUnknownGroup", run(func(_ *compute, in *ec2.RunInstancesInput) { in.SecurityGroupIds = []string{"sg-0123456789abcdef0"} })},
		{"RunGroupOfAnotherVpc", run(func(c *compute, in *ec2.RunInstancesInput) { in.SecurityGroupIds = []string{c.abroad} })},
		{"RunMalformedImage", run(func(_ *compute, in *ec2.RunInstancesInput) { in.ImageId = aws.String("bogus") })},
		{"RunUnknownInstanceType", run(func(_ *compute, in *ec2.RunInstancesInput) { in.InstanceType = "huge" })},
		{"RunMinAboveMax", run(func(_ *compute, in *ec2.RunInstancesInput) { in.MinCount = aws.Int32(2) })},
		{"RunWithoutSubnet", run(func(_ *compute, in *ec2.RunInstancesInput) { in.SubnetId, in.SecurityGroupIds = nil, nil })},
		{"RunUpToMaxCount", func(c *compute) outcome {
			in := webLaunch(c)
			in.ClientToken, in.MaxCount = nil, aws.Int32(3)
			out, err := c.ec2.RunInstances(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"instances": strconv.Itoa(len(out.Instances))})
		}},
		{"DescribeUnknownInstance", func(c *compute) outcome {
			_, err := c.ec2.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: []string{"i-0123456789abcdef0"}})
			return observe(err, nil)
		}},
		{"DescribeMalformedInstance", func(c *compute) outcome {
			_, err := c.ec2.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: []string{"web-1"}})
			return observe(err, nil)
		}},
		// Last, as moto deletes what AWS keeps: the stop-protected instance still runs in both.
		{"DeleteSubnetInUse", func(c *compute) outcome {
			_, err := c.ec2.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(c.subnet)})
			return observe(err, nil)
		}},
		{"DeleteGroupInUse", func(c *compute) outcome {
			_, err := c.ec2.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(c.group)})
			return observe(err, nil)
		}},
	}
}

// TestComputeInstancesAgainstMoto compares EC2 instances with moto's EC2.
func TestComputeInstancesAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := &compute{ec2: ec2.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &compute{ec2: ec2.NewFromConfig(sdkConfig(t, peerURL)), settle: func() {}}
	// moto ignores ClientToken; AWS answers a repeated token with the reservation it launched and
	// refuses the token with other parameters (Amazon EC2 Developer Guide, Ensuring idempotency).
	const noIdempotency = "moto launches again on a repeated ClientToken; AWS answers the same reservation, and IdempotentParameterMismatch when the parameters differ"
	// moto lets a terminated instance start and stop again; on AWS termination is permanent and
	// irreversible (TerminateInstances) and the instance is in no state to start or stop from.
	const revives = "moto starts and stops a terminated instance; AWS terminates for good and answers IncorrectInstanceState"
	// moto deletes what a running instance still uses; AWS refuses while a resource has dependencies.
	const noDependencies = "moto deletes it while an instance uses it; AWS answers DependencyViolation"
	compare(t, emuSide, peerSide, "moto "+motoVersion, computeSteps(), map[string]string{
		"RepeatClientToken":          noIdempotency,
		"ReuseClientTokenOtherType":  noIdempotency,
		"FilterByClientToken":        "moto has not implemented the client-token filter (HTTP 500); AWS's DescribeInstances documents it",
		"ModifyTypeWhileRunning":     "moto changes the type of a running instance; AWS changes it only while the instance is stopped (ModifyInstanceAttribute: to modify some attributes the instance must be stopped) and answers IncorrectInstanceState",
		"DescribeStopped":            "follows from ModifyTypeWhileRunning: moto changed the type of the running instance to m5.large",
		"TerminateProtectedAtLaunch": "moto ignores RunInstances' DisableApiTermination (it honours the attribute only once set by ModifyInstanceAttribute); AWS refuses to terminate with OperationNotPermitted",
		"StartTerminated":            revives,
		"StopTerminated":             revives,
		"RunGroupOfAnotherVpc":       "moto launches with a security group of another VPC; AWS answers InvalidParameter (EC2 error codes: a security group and subnet in different VPCs)",
		"RunMalformedImage":          "moto accepts any image id; AWS answers InvalidAMIID.Malformed for one not of the ami- form",
		"RunUnknownInstanceType":     "moto accepts any instance type unless MOTO_EC2_ENABLE_INSTANCE_TYPE_VALIDATION is set; AWS refuses one that does not exist",
		"RunMinAboveMax":             "moto launches MinCount instances and ignores MaxCount; AWS refuses a MinCount above MaxCount with InvalidParameterValue",
		"RunUpToMaxCount":            "moto launches MinCount instances; AWS launches as many as MaxCount asks when capacity allows (RunInstances, MaxCount)",
		"DescribeMalformedInstance":  "moto answers InvalidInstanceID.NotFound; AWS answers InvalidInstanceID.Malformed for an id not of the i- form",
		"DeleteSubnetInUse":          noDependencies,
		"DeleteGroupInUse":           noDependencies,
	})
}
