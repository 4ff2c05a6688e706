package emulator_test

import (
	"context"
	"encoding/base64"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"
)

// testAMI is an image id of the right form; the emulator accepts any.
const testAMI = "ami-0123456789abcdef0"

// launchIn returns a RunInstances request for one t3.micro instance in a subnet.
func launchIn(subnet string) *ec2.RunInstancesInput {
	return &ec2.RunInstancesInput{ImageId: aws.String(testAMI), InstanceType: types.InstanceTypeT3Micro, MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		SubnetId: aws.String(subnet)}
}

// runInstance launches one instance and returns it as RunInstances answers it.
func runInstance(t *testing.T, c *ec2.Client, in *ec2.RunInstancesInput) types.Instance {
	t.Helper()
	out, err := c.RunInstances(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Instances) != 1 {
		t.Fatalf("RunInstances launched %d instances, want 1", len(out.Instances))
	}
	return out.Instances[0]
}

// instanceState returns an instance as DescribeInstances shows it.
func instanceState(t *testing.T, c *ec2.Client, id *string) types.Instance {
	t.Helper()
	out, err := c.DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if err != nil || len(out.Reservations) != 1 || len(out.Reservations[0].Instances) != 1 {
		t.Fatalf("DescribeInstances %s: %+v, %v", aws.ToString(id), out, err)
	}
	return out.Reservations[0].Instances[0]
}

// change is a state change as the tests compare it: instance, previous state and code, current
// state and code.
type change struct {
	ID, Previous, Current string
	PreviousCode, Code    int32
}

// changes returns state changes in comparable form.
func changes(list []types.InstanceStateChange) []change {
	var out []change
	for _, c := range list {
		out = append(out, change{aws.ToString(c.InstanceId), string(c.PreviousState.Name), string(c.CurrentState.Name),
			aws.ToInt32(c.PreviousState.Code), aws.ToInt32(c.CurrentState.Code)})
	}
	return out
}

// freeAddresses returns a subnet's AvailableIpAddressCount.
func freeAddresses(t *testing.T, c *ec2.Client, subnet string) int32 {
	t.Helper()
	out, err := c.DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{SubnetIds: []string{subnet}})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToInt32(out.Subnets[0].AvailableIpAddressCount)
}

func TestEC2InstanceRunValidation(t *testing.T) {
	_, c := ec2Client(t)
	vpc := createVpc(t, c, "10.0.0.0/16")
	subnet, tiny := createSubnet(t, c, vpc, "10.0.1.0/24"), createSubnet(t, c, vpc, "10.0.2.0/28")
	other := createVpc(t, c, "10.1.0.0/16")
	foreign := createGroup(t, c, other, "foreign")
	cases := map[string]struct {
		reason string
		args   func(in *ec2.RunInstancesInput)
		want   string
	}{
		"Valid":          {reason: "An AMI of the right form, a type and a subnet launch.", args: func(*ec2.RunInstancesInput) {}},
		"DefaultType":    {reason: "Without a type AWS launches m1.small.", args: func(in *ec2.RunInstancesInput) { in.InstanceType = "" }},
		"VolumeTags":     {reason: "Volume tags may come with instance tags.", args: func(in *ec2.RunInstancesInput) { in.TagSpecifications = nameTag(types.ResourceTypeVolume, "data") }},
		"MissingImage":   {reason: "An AMI is required.", want: "MissingParameter", args: func(in *ec2.RunInstancesInput) { in.ImageId = nil }},
		"MalformedImage": {reason: "An AMI id has the ami- form.", want: "InvalidAMIID.Malformed", args: func(in *ec2.RunInstancesInput) { in.ImageId = aws.String("bogus") }},
		"BadType":        {reason: "An instance type is family.size.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) { in.InstanceType = "huge" }},
		"MinAboveMax":    {reason: "MinCount cannot exceed MaxCount.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) { in.MinCount = aws.Int32(3) }},
		"ZeroMin":        {reason: "At least one instance.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) { in.MinCount = aws.Int32(0) }},
		"UnknownSubnet": {reason: "The subnet must exist.", want: "InvalidSubnetID.NotFound", args: func(in *ec2.RunInstancesInput) {
			in.SubnetId = aws.String("subnet-0123456789abcdef0")
		}},
		"MalformedSubnet": {reason: "A subnet id has the subnet- form.", want: "InvalidSubnetID.Malformed", args: func(in *ec2.RunInstancesInput) { in.SubnetId = aws.String("vpc-0123456789abcdef0") }},
		"NoDefaultSubnetInZone": {reason: "Without a subnet, the default subnet of the zone asked for must exist.", want: "MissingInput", args: func(in *ec2.RunInstancesInput) {
			in.SubnetId, in.Placement = nil, &types.Placement{AvailabilityZone: aws.String("us-east-1z")}
		}},
		"UnknownGroup": {reason: "Security groups must exist.", want: "InvalidGroup.NotFound", args: func(in *ec2.RunInstancesInput) {
			in.SecurityGroupIds = []string{"sg-0123456789abcdef0"}
		}},
		"ForeignGroup": {reason: "Security groups must be in the subnet's VPC.", want: "InvalidParameter", args: func(in *ec2.RunInstancesInput) { in.SecurityGroupIds = []string{foreign} }},
		"GroupNames":   {reason: "Group names go with the default VPC's subnets, never with a subnet named.", want: "InvalidParameterCombination", args: func(in *ec2.RunInstancesInput) { in.SecurityGroups = []string{"web"} }},
		"InterfaceAndSubnet": {reason: "A subnet goes on the instance or on its interface, not both.", want: "InvalidParameterCombination", args: func(in *ec2.RunInstancesInput) {
			in.NetworkInterfaces = []types.InstanceNetworkInterfaceSpecification{{DeviceIndex: aws.Int32(0), SubnetId: aws.String(subnet)}}
		}},
		"UserDataNotBase64": {reason: "User data is sent base64-encoded.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) { in.UserData = aws.String("#!/bin/sh") }},
		"HttpTokens": {reason: "HttpTokens is optional or required.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) {
			in.MetadataOptions = &types.InstanceMetadataOptionsRequest{HttpTokens: "sometimes"}
		}},
		"HopLimit": {reason: "The hop limit is 1 to 64.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) {
			in.MetadataOptions = &types.InstanceMetadataOptionsRequest{HttpPutResponseHopLimit: aws.Int32(65)}
		}},
		"ShutdownBehavior": {reason: "An instance stops or terminates on shutdown.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) {
			in.InstanceInitiatedShutdownBehavior = "hibernate"
		}},
		"VolumeType": {reason: "EBS volume types are AWS's.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) {
			in.BlockDeviceMappings = []types.BlockDeviceMapping{{DeviceName: aws.String("/dev/sdf"), Ebs: &types.EbsBlockDevice{VolumeType: "floppy"}}}
		}},
		"KmsKeyUnencrypted": {reason: "A KMS key needs an encrypted volume.", want: "InvalidParameterDependency", args: func(in *ec2.RunInstancesInput) {
			in.BlockDeviceMappings = []types.BlockDeviceMapping{{DeviceName: aws.String("/dev/sdf"), Ebs: &types.EbsBlockDevice{KmsKeyId: aws.String("alias/data")}}}
		}},
		"DuplicateDevice": {reason: "A device is mapped once.", want: "InvalidBlockDeviceMapping", args: func(in *ec2.RunInstancesInput) {
			m := types.BlockDeviceMapping{DeviceName: aws.String("/dev/sdf"), Ebs: &types.EbsBlockDevice{VolumeSize: aws.Int32(10)}}
			in.BlockDeviceMappings = []types.BlockDeviceMapping{m, m}
		}},
		"TagResourceType": {reason: "RunInstances tags instances, volumes and interfaces only.", want: "InvalidParameterValue", args: func(in *ec2.RunInstancesInput) {
			in.TagSpecifications = nameTag(types.ResourceTypeVpc, "web")
		}},
		"SubnetTooSmall": {reason: "A /28 has 11 free addresses, fewer than MinCount.", want: "InsufficientFreeAddressesInSubnet", args: func(in *ec2.RunInstancesInput) {
			in.SubnetId, in.MinCount, in.MaxCount = aws.String(tiny), aws.Int32(12), aws.Int32(12)
		}},
		"DryRun": {reason: "A dry run that would succeed says so.", want: "DryRunOperation", args: func(in *ec2.RunInstancesInput) { in.DryRun = aws.Bool(true) }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := launchIn(subnet)
			tc.args(in)
			_, err := c.RunInstances(context.Background(), in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEC2InstanceLifecycle(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	subnet, web := createSubnet(t, c, vpc, "10.0.1.0/24"), createGroup(t, c, vpc, "web")
	userData := base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\necho hello\n"))
	in := &ec2.RunInstancesInput{ImageId: aws.String(testAMI), InstanceType: types.InstanceTypeT3Micro, MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		KeyName: aws.String("deploy"), UserData: aws.String(userData), IamInstanceProfile: &types.IamInstanceProfileSpecification{Name: aws.String("web-role")},
		Monitoring:      &types.RunInstancesMonitoringEnabled{Enabled: aws.Bool(true)},
		MetadataOptions: &types.InstanceMetadataOptionsRequest{HttpTokens: types.HttpTokensStateRequired, HttpPutResponseHopLimit: aws.Int32(2)},
		BlockDeviceMappings: []types.BlockDeviceMapping{{DeviceName: aws.String("/dev/xvda"), Ebs: &types.EbsBlockDevice{VolumeSize: aws.Int32(20), VolumeType: types.VolumeTypeGp3}},
			{DeviceName: aws.String("/dev/sdf"), Ebs: &types.EbsBlockDevice{VolumeSize: aws.Int32(100), Encrypted: aws.Bool(true), KmsKeyId: aws.String("alias/data"),
				DeleteOnTermination: aws.Bool(false)}}},
		NetworkInterfaces: []types.InstanceNetworkInterfaceSpecification{{DeviceIndex: aws.Int32(0), SubnetId: aws.String(subnet), Groups: []string{web},
			AssociatePublicIpAddress: aws.Bool(true)}},
		TagSpecifications: nameTag(types.ResourceTypeInstance, "web-1")}
	launched := runInstance(t, c, in)
	id := launched.InstanceId
	if launched.State.Name != types.InstanceStateNamePending || aws.ToInt32(launched.State.Code) != 0 || !strings.HasPrefix(aws.ToString(id), "i-") {
		t.Errorf("a new instance: %+v", launched.State)
	}
	i := instanceState(t, c, id)
	public, err := netip.ParseAddr(aws.ToString(i.PublicIpAddress))
	if err != nil || !netip.MustParsePrefix("198.18.0.0/15").Contains(public) {
		t.Errorf("the public address %q is not from the emulator's test range", aws.ToString(i.PublicIpAddress))
	}
	type shown struct {
		PrivateIP, PrivateDNS, Zone, Vpc, Key, Profile, Root, RootType, Monitoring, Tokens, Metadata, Arch, Group, Tag string
		Hops, Interfaces                                                                                               int32
		Devices                                                                                                        []string
		KeepData                                                                                                       bool
	}
	got := shown{PrivateIP: aws.ToString(i.PrivateIpAddress), PrivateDNS: aws.ToString(i.PrivateDnsName), Zone: aws.ToString(i.Placement.AvailabilityZone),
		Vpc: aws.ToString(i.VpcId), Key: aws.ToString(i.KeyName), Profile: aws.ToString(i.IamInstanceProfile.Arn), Root: aws.ToString(i.RootDeviceName),
		RootType: string(i.RootDeviceType), Monitoring: string(i.Monitoring.State), Tokens: string(i.MetadataOptions.HttpTokens),
		Metadata: string(i.MetadataOptions.State), Arch: string(i.Architecture), Group: aws.ToString(i.SecurityGroups[0].GroupName), Tag: aws.ToString(i.Tags[0].Value),
		Hops: aws.ToInt32(i.MetadataOptions.HttpPutResponseHopLimit), Interfaces: int32(len(i.NetworkInterfaces)),
		KeepData: !aws.ToBool(i.BlockDeviceMappings[1].Ebs.DeleteOnTermination)}
	for _, m := range i.BlockDeviceMappings {
		got.Devices = append(got.Devices, aws.ToString(m.DeviceName)+" "+string(m.Ebs.Status)+" "+aws.ToString(m.Ebs.VolumeId)[:4])
	}
	want := shown{PrivateIP: "10.0.1.4", PrivateDNS: "ip-10-0-1-4.ec2.internal", Zone: "us-east-1a", Vpc: vpc, Key: "deploy",
		Profile: "arn:aws:iam::000000000000:instance-profile/web-role", Root: "/dev/xvda", RootType: "ebs", Monitoring: "pending", Tokens: "required",
		Metadata: "pending", Arch: "x86_64", Group: "web", Tag: "web-1", Hops: 2, Interfaces: 1,
		Devices: []string{"/dev/xvda attached vol-", "/dev/sdf attached vol-"}, KeepData: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a launched instance: -want +got:\n%s", diff)
	}
	if n := i.NetworkInterfaces[0]; !strings.HasPrefix(aws.ToString(n.NetworkInterfaceId), "eni-") || aws.ToString(n.Association.PublicIp) != public.String() {
		t.Errorf("the instance's network interface: %+v", n)
	}
	if !strings.HasPrefix(aws.ToString(i.IamInstanceProfile.Id), "AIPA") {
		t.Errorf("the instance profile id is %q", aws.ToString(i.IamInstanceProfile.Id))
	}
	attr, err := c.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: id, Attribute: types.InstanceAttributeNameUserData})
	if err != nil || aws.ToString(attr.UserData.Value) != userData {
		t.Errorf("userData = %+v, %v; want the base64 sent", attr, err)
	}

	if _, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(id)}}); errorCode(err) != "IncorrectInstanceState" {
		t.Errorf("stopping a pending instance gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	i = instanceState(t, c, id)
	if i.State.Name != types.InstanceStateNameRunning || aws.ToInt32(i.State.Code) != 16 || i.MetadataOptions.State != types.InstanceMetadataOptionsStateApplied ||
		i.Monitoring.State != types.MonitoringStateEnabled {
		t.Errorf("after the transition: %+v %+v %+v", i.State, i.MetadataOptions, i.Monitoring)
	}
	again, err := c.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if diff := cmp.Diff([]change{{aws.ToString(id), "running", "running", 16, 16}}, changes(again.StartingInstances)); err != nil || diff != "" {
		t.Errorf("starting a running instance leaves it running: %v\n%s", err, diff)
	}

	stopped, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if diff := cmp.Diff([]change{{aws.ToString(id), "running", "stopping", 16, 64}}, changes(stopped.StoppingInstances)); err != nil || diff != "" {
		t.Errorf("StopInstances: %v\n%s", err, diff)
	}
	if _, err := c.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: []string{aws.ToString(id)}}); errorCode(err) != "IncorrectInstanceState" {
		t.Errorf("starting a stopping instance gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	i = instanceState(t, c, id)
	if i.State.Name != types.InstanceStateNameStopped || aws.ToInt32(i.State.Code) != 80 || i.PublicIpAddress != nil || aws.ToString(i.PrivateIpAddress) != "10.0.1.4" ||
		i.StateReason == nil || aws.ToString(i.StateReason.Code) != "Client.UserInitiatedShutdown" {
		t.Errorf("a stopped instance keeps its private address and loses its public one: %+v", i)
	}
	started, err := c.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if diff := cmp.Diff([]change{{aws.ToString(id), "stopped", "pending", 80, 0}}, changes(started.StartingInstances)); err != nil || diff != "" {
		t.Errorf("StartInstances: %v\n%s", err, diff)
	}
	e.Clock.Advance(2 * time.Second)
	i = instanceState(t, c, id)
	if i.State.Name != types.InstanceStateNameRunning || i.PublicIpAddress == nil || aws.ToString(i.PublicIpAddress) == public.String() {
		t.Errorf("a restarted instance gets a new public address: %+v, was %s", i.PublicIpAddress, public)
	}

	terminated, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if diff := cmp.Diff([]change{{aws.ToString(id), "running", "shutting-down", 16, 32}}, changes(terminated.TerminatingInstances)); err != nil || diff != "" {
		t.Errorf("TerminateInstances: %v\n%s", err, diff)
	}
	if _, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(id)}}); errorCode(err) != "IncorrectInstanceState" {
		t.Errorf("stopping a shutting-down instance gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	i = instanceState(t, c, id)
	if i.State.Name != types.InstanceStateNameTerminated || aws.ToInt32(i.State.Code) != 48 || len(i.NetworkInterfaces) != 0 || i.PrivateIpAddress != nil {
		t.Errorf("a terminated instance: %+v", i)
	}
	for name, call := range map[string]func() error{
		"Stop": func() error {
			_, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(id)}})
			return err
		},
		"Start": func() error {
			_, err := c.StartInstances(ctx, &ec2.StartInstancesInput{InstanceIds: []string{aws.ToString(id)}})
			return err
		},
	} {
		if err := call(); errorCode(err) != "IncorrectInstanceState" {
			t.Errorf("%s on a terminated instance gave %v", name, err)
		}
	}
	twice, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if diff := cmp.Diff([]change{{aws.ToString(id), "terminated", "terminated", 48, 48}}, changes(twice.TerminatingInstances)); err != nil || diff != "" {
		t.Errorf("terminating twice succeeds, as AWS documents: %v\n%s", err, diff)
	}
	e.Clock.Advance(2 * time.Hour)
	if _, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: []string{aws.ToString(id)}}); errorCode(err) != "InvalidInstanceID.NotFound" {
		t.Errorf("a terminated instance is gone after an hour; describing it gave %v", err)
	}
}

func TestEC2InstanceClientToken(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	subnet := createSubnet(t, c, vpc, "10.0.1.0/24")
	in := launchIn(subnet)
	in.ClientToken, in.MinCount, in.MaxCount = aws.String("web-fleet-1"), aws.Int32(2), aws.Int32(3)
	first, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Instances) != 3 || aws.ToInt32(first.Instances[2].AmiLaunchIndex) != 2 || aws.ToString(first.Instances[0].ClientToken) != "web-fleet-1" {
		t.Fatalf("MaxCount 3 in a roomy subnet launches 3: %+v", first.Instances)
	}
	e.Clock.Advance(2 * time.Second)
	second, err := c.RunInstances(ctx, in)
	if err != nil || aws.ToString(second.ReservationId) != aws.ToString(first.ReservationId) || len(second.Instances) != 3 ||
		aws.ToString(second.Instances[0].InstanceId) != aws.ToString(first.Instances[0].InstanceId) || second.Instances[0].State.Name != types.InstanceStateNameRunning {
		t.Errorf("the same ClientToken answers the same reservation, in its current state: %+v, %v", second, err)
	}
	all, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{filter("client-token", "web-fleet-1")}})
	if err != nil || len(all.Reservations) != 1 || len(all.Reservations[0].Instances) != 3 {
		t.Errorf("the repeat launched nothing more: %+v, %v", all, err)
	}
	changed := *in
	changed.InstanceType = types.InstanceTypeM5Large
	if _, err := c.RunInstances(ctx, &changed); errorCode(err) != "IdempotentParameterMismatch" {
		t.Errorf("the same ClientToken with another instance type gave %v", err)
	}
	if free := freeAddresses(t, c, subnet); free != 251-3 {
		t.Errorf("three instances take three addresses: %d free", free)
	}
}

func TestEC2InstanceProtection(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	zoneA, zoneB := createSubnet(t, c, vpc, "10.0.1.0/24"), createSubnet(t, c, vpc, "10.0.2.0/24")
	protected := launchIn(zoneA)
	protected.DisableApiTermination, protected.DisableApiStop = aws.Bool(true), aws.Bool(true)
	guarded := runInstance(t, c, protected).InstanceId
	neighbour, elsewhere := runInstance(t, c, launchIn(zoneA)).InstanceId, runInstance(t, c, launchIn(zoneB)).InstanceId
	e.Clock.Advance(2 * time.Second)

	if _, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(guarded)}}); errorCode(err) != "OperationNotPermitted" {
		t.Errorf("stopping with DisableApiStop gave %v", err)
	}
	ids := []string{aws.ToString(guarded), aws.ToString(neighbour), aws.ToString(elsewhere)}
	if _, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: ids}); errorCode(err) != "OperationNotPermitted" {
		t.Errorf("terminating with DisableApiTermination gave %v", err)
	}
	// As AWS documents, instances in the protected instance's zone stay, the others go.
	for id, want := range map[*string]types.InstanceStateName{guarded: types.InstanceStateNameRunning, neighbour: types.InstanceStateNameRunning,
		elsewhere: types.InstanceStateNameShuttingDown} {
		if got := instanceState(t, c, id).State.Name; got != want {
			t.Errorf("%s is %s after the refused termination, want %s", aws.ToString(id), got, want)
		}
	}
	if _, err := c.ModifyInstanceAttribute(ctx, &ec2.ModifyInstanceAttributeInput{InstanceId: guarded,
		DisableApiTermination: &types.AttributeBooleanValue{Value: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: ids[:2]})
	if err != nil || len(out.TerminatingInstances) != 2 {
		t.Errorf("terminating once protection is off: %+v, %v", out, err)
	}
}

func TestEC2InstanceAttributes(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	subnet, db := createSubnet(t, c, vpc, "10.0.1.0/24"), createGroup(t, c, vpc, "db")
	id := runInstance(t, c, launchIn(subnet)).InstanceId
	e.Clock.Advance(2 * time.Second)
	modify := func(in *ec2.ModifyInstanceAttributeInput) error {
		in.InstanceId = id
		_, err := c.ModifyInstanceAttribute(ctx, in)
		return err
	}
	attribute := func(name types.InstanceAttributeName) *ec2.DescribeInstanceAttributeOutput {
		out, err := c.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: id, Attribute: name})
		if err != nil {
			t.Fatalf("DescribeInstanceAttribute %s: %v", name, err)
		}
		return out
	}
	largeType := &types.AttributeValue{Value: aws.String("m5.large")}
	cases := map[string]struct {
		reason string
		args   *ec2.ModifyInstanceAttributeInput
		want   string
	}{
		"TypeWhileRunning": {reason: "The type changes only while stopped.", want: "IncorrectInstanceState", args: &ec2.ModifyInstanceAttributeInput{InstanceType: largeType}},
		"UserDataWhileRunning": {reason: "User data changes only while stopped.", want: "IncorrectInstanceState",
			args: &ec2.ModifyInstanceAttributeInput{UserData: &types.SecureBlobAttributeValue{Value: []byte("#!/bin/sh")}}},
		"TwoAttributes": {reason: "One attribute a call.", want: "InvalidParameterCombination", args: &ec2.ModifyInstanceAttributeInput{
			SourceDestCheck: &types.AttributeBooleanValue{Value: aws.Bool(false)}, DisableApiStop: &types.AttributeBooleanValue{Value: aws.Bool(true)}}},
		"BadType":         {reason: "AWS documents InvalidInstanceAttributeValue for a type that is not valid.", want: "InvalidInstanceAttributeValue", args: &ec2.ModifyInstanceAttributeInput{Attribute: "instanceType", Value: aws.String("huge")}},
		"UnknownGroup":    {reason: "Groups must exist.", want: "InvalidGroup.NotFound", args: &ec2.ModifyInstanceAttributeInput{Groups: []string{"sg-0123456789abcdef0"}}},
		"Groups":          {reason: "Groups change while running.", args: &ec2.ModifyInstanceAttributeInput{Groups: []string{db}}},
		"SourceDestCheck": {reason: "So does the source/destination check.", args: &ec2.ModifyInstanceAttributeInput{SourceDestCheck: &types.AttributeBooleanValue{Value: aws.Bool(false)}}},
		"ShutdownBehavior": {reason: "And the shutdown behaviour, here by Attribute and Value.",
			args: &ec2.ModifyInstanceAttributeInput{Attribute: types.InstanceAttributeNameInstanceInitiatedShutdownBehavior, Value: aws.String("terminate")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(modify(tc.args))); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	if g := attribute(types.InstanceAttributeNameGroupSet).Groups; len(g) != 1 || aws.ToString(g[0].GroupId) != db || aws.ToString(g[0].GroupName) != "db" {
		t.Errorf("groupSet = %+v", g)
	}
	if v := attribute(types.InstanceAttributeNameSourceDestCheck).SourceDestCheck; aws.ToBool(v.Value) {
		t.Errorf("sourceDestCheck = %+v", v)
	}
	if v := attribute(types.InstanceAttributeNameInstanceInitiatedShutdownBehavior).InstanceInitiatedShutdownBehavior; aws.ToString(v.Value) != "terminate" {
		t.Errorf("instanceInitiatedShutdownBehavior = %+v", v)
	}
	if v := attribute(types.InstanceAttributeNameDisableApiTermination).DisableApiTermination; aws.ToBool(v.Value) {
		t.Errorf("disableApiTermination = %+v", v)
	}
	if _, err := c.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: id, Attribute: "colour"}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("an unknown attribute gave %v", err)
	}

	if _, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(id)}}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if err := modify(&ec2.ModifyInstanceAttributeInput{InstanceType: largeType}); err != nil {
		t.Errorf("changing the type of a stopped instance: %v", err)
	}
	if err := modify(&ec2.ModifyInstanceAttributeInput{UserData: &types.SecureBlobAttributeValue{Value: []byte("#!/bin/sh\n")}}); err != nil {
		t.Errorf("changing the user data of a stopped instance: %v", err)
	}
	if v := attribute(types.InstanceAttributeNameInstanceType).InstanceType; aws.ToString(v.Value) != "m5.large" {
		t.Errorf("instanceType = %+v", v)
	}
	if v := attribute(types.InstanceAttributeNameUserData).UserData; aws.ToString(v.Value) != base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\n")) {
		t.Errorf("userData = %q", aws.ToString(v.Value))
	}
	if err := modify(&ec2.ModifyInstanceAttributeInput{DisableApiStop: &types.AttributeBooleanValue{Value: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	if v := attribute(types.InstanceAttributeNameDisableApiStop).DisableApiStop; !aws.ToBool(v.Value) {
		t.Errorf("disableApiStop = %+v", v)
	}

	options, err := c.ModifyInstanceMetadataOptions(ctx, &ec2.ModifyInstanceMetadataOptionsInput{InstanceId: id, HttpTokens: types.HttpTokensStateRequired,
		HttpEndpoint: types.InstanceMetadataEndpointStateEnabled, HttpPutResponseHopLimit: aws.Int32(3)})
	if err != nil || options.InstanceMetadataOptions.State != types.InstanceMetadataOptionsStatePending || options.InstanceMetadataOptions.HttpTokens != types.HttpTokensStateRequired {
		t.Errorf("ModifyInstanceMetadataOptions: %+v, %v", options, err)
	}
	monitored, err := c.MonitorInstances(ctx, &ec2.MonitorInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if err != nil || monitored.InstanceMonitorings[0].Monitoring.State != types.MonitoringStatePending {
		t.Errorf("MonitorInstances: %+v, %v", monitored, err)
	}
	e.Clock.Advance(2 * time.Second)
	i := instanceState(t, c, id)
	if i.MetadataOptions.State != types.InstanceMetadataOptionsStateApplied || aws.ToInt32(i.MetadataOptions.HttpPutResponseHopLimit) != 3 ||
		i.Monitoring.State != types.MonitoringStateEnabled || i.InstanceType != types.InstanceTypeM5Large {
		t.Errorf("after the transition: %+v %+v %s", i.MetadataOptions, i.Monitoring, i.InstanceType)
	}
	unmonitored, err := c.UnmonitorInstances(ctx, &ec2.UnmonitorInstancesInput{InstanceIds: []string{aws.ToString(id)}})
	if err != nil || unmonitored.InstanceMonitorings[0].Monitoring.State != types.MonitoringStateDisabling {
		t.Errorf("UnmonitorInstances: %+v, %v", unmonitored, err)
	}
}

func TestEC2InstanceDescribe(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	web, db := createSubnet(t, c, vpc, "10.0.1.0/24"), createSubnet(t, c, vpc, "10.0.2.0/24")
	fleet := launchIn(web)
	fleet.MinCount, fleet.MaxCount = aws.Int32(4), aws.Int32(4)
	fleet.TagSpecifications = nameTag(types.ResourceTypeInstance, "web")
	if _, err := c.RunInstances(ctx, fleet); err != nil {
		t.Fatal(err)
	}
	tokened := launchIn(db)
	tokened.ClientToken, tokened.TagSpecifications = aws.String("db-primary"), nameTag(types.ResourceTypeInstance, "db")
	primary := runInstance(t, c, tokened).InstanceId
	replica := runInstance(t, c, launchIn(db)).InstanceId
	stopped := runInstance(t, c, launchIn(db)).InstanceId
	e.Clock.Advance(2 * time.Second)
	if _, err := c.StopInstances(ctx, &ec2.StopInstancesInput{InstanceIds: []string{aws.ToString(stopped)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{aws.ToString(replica)}, Tags: []types.Tag{{Key: aws.String("role"), Value: aws.String("replica")}}}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)

	count := func(out *ec2.DescribeInstancesOutput) (reservations, instances int) {
		for _, r := range out.Reservations {
			instances += len(r.Instances)
		}
		return len(out.Reservations), instances
	}
	cases := map[string]struct {
		filters                 []types.Filter
		reservations, instances int
	}{
		"All":          {nil, 4, 7},
		"InstanceId":   {[]types.Filter{filter("instance-id", aws.ToString(primary))}, 1, 1},
		"Stopped":      {[]types.Filter{filter("instance-state-name", "stopped")}, 1, 1},
		"Running":      {[]types.Filter{filter("instance-state-name", "running")}, 3, 6},
		"StateCode":    {[]types.Filter{filter("instance-state-code", "80")}, 1, 1},
		"Subnet":       {[]types.Filter{filter("subnet-id", web)}, 1, 4},
		"Vpc":          {[]types.Filter{filter("vpc-id", vpc)}, 4, 7},
		"Tag":          {[]types.Filter{filter("tag:Name", "web")}, 1, 4},
		"TagKey":       {[]types.Filter{filter("tag-key", "role")}, 1, 1},
		"ClientToken":  {[]types.Filter{filter("client-token", "db-primary")}, 1, 1},
		"PrivateIP":    {[]types.Filter{filter("private-ip-address", "10.0.2.*")}, 3, 3},
		"TwoFilters":   {[]types.Filter{filter("subnet-id", db), filter("instance-state-name", "running")}, 2, 2},
		"NoneMatching": {[]types.Filter{filter("instance-type", "m5.large")}, 0, 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: tc.filters})
			if err != nil {
				t.Fatal(err)
			}
			if r, i := count(out); r != tc.reservations || i != tc.instances {
				t.Errorf("%d reservations, %d instances; want %d, %d", r, i, tc.reservations, tc.instances)
			}
		})
	}

	first, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{MaxResults: aws.Int32(5)})
	if _, n := count(first); err != nil || n != 5 || first.NextToken == nil {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	second, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{MaxResults: aws.Int32(5), NextToken: first.NextToken})
	if _, n := count(second); err != nil || n != 2 || second.NextToken != nil {
		t.Errorf("second page: %+v, %v", second, err)
	}
	gone := []string{aws.ToString(primary), "i-0123456789abcdef0", "i-0123456789abcdef1"}
	errs := map[string]struct {
		in   *ec2.DescribeInstancesInput
		want string
	}{
		"Missing":         {&ec2.DescribeInstancesInput{InstanceIds: gone}, "InvalidInstanceID.NotFound"},
		"Malformed":       {&ec2.DescribeInstancesInput{InstanceIds: []string{"instance-1"}}, "InvalidInstanceID.Malformed"},
		"IdsAndPaging":    {&ec2.DescribeInstancesInput{InstanceIds: gone[:1], MaxResults: aws.Int32(5)}, "InvalidParameterCombination"},
		"PageTooSmall":    {&ec2.DescribeInstancesInput{MaxResults: aws.Int32(3)}, "InvalidParameterValue"},
		"UnknownFilter":   {&ec2.DescribeInstancesInput{Filters: []types.Filter{filter("colour", "blue")}}, "InvalidParameterValue"},
		"BadPaginationTk": {&ec2.DescribeInstancesInput{MaxResults: aws.Int32(5), NextToken: aws.String("x")}, "InvalidPaginationToken"},
	}
	for name, tc := range errs {
		t.Run(name, func(t *testing.T) {
			_, err := c.DescribeInstances(ctx, tc.in)
			if errorCode(err) != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
			if name == "Missing" && (!strings.Contains(err.Error(), gone[1]) || !strings.Contains(err.Error(), gone[2])) {
				t.Errorf("the error names every missing instance: %v", err)
			}
		})
	}
	if _, err := c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{aws.ToString(replica)}, Tags: []types.Tag{{Key: aws.String("role")}}}); err != nil {
		t.Fatal(err)
	}
	if tags := instanceState(t, c, replica).Tags; len(tags) != 0 {
		t.Errorf("after DeleteTags: %+v", tags)
	}
}

func TestEC2InstanceAddressesAndDependencies(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	subnet, web := createSubnet(t, c, vpc, "10.0.1.0/28"), createGroup(t, c, vpc, "web")
	if _, err := c.ModifySubnetAttribute(ctx, &ec2.ModifySubnetAttributeInput{SubnetId: aws.String(subnet), MapPublicIpOnLaunch: &types.AttributeBooleanValue{Value: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	in := launchIn(subnet)
	in.MinCount, in.MaxCount, in.SecurityGroupIds = aws.Int32(2), aws.Int32(20), []string{web}
	out, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	var ids, addrs []string
	for _, i := range out.Instances {
		ids, addrs = append(ids, aws.ToString(i.InstanceId)), append(addrs, aws.ToString(i.PrivateIpAddress))
		if i.PublicIpAddress == nil {
			t.Errorf("%s has no public address in a subnet that maps one on launch", aws.ToString(i.InstanceId))
		}
	}
	if len(ids) != 11 || addrs[0] != "10.0.1.4" || addrs[10] != "10.0.1.14" {
		t.Errorf("a /28 holds 11 instances, from .4 to .14: %v", addrs)
	}
	if free := freeAddresses(t, c, subnet); free != 0 {
		t.Errorf("the full subnet has %d free addresses", free)
	}
	if _, err := c.RunInstances(ctx, launchIn(subnet)); errorCode(err) != "InsufficientFreeAddressesInSubnet" {
		t.Errorf("launching into a full subnet gave %v", err)
	}
	if _, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(subnet)}); errorCode(err) != "DependencyViolation" {
		t.Errorf("deleting a subnet with instances gave %v", err)
	}
	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(web)}); errorCode(err) != "DependencyViolation" {
		t.Errorf("deleting a group with instances gave %v", err)
	}
	if _, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: ids[:3]}); err != nil {
		t.Fatal(err)
	}
	if free := freeAddresses(t, c, subnet); free != 0 {
		t.Errorf("shutting-down instances still hold their addresses: %d free", free)
	}
	e.Clock.Advance(2 * time.Second)
	if free := freeAddresses(t, c, subnet); free != 3 {
		t.Errorf("terminated instances give their addresses back: %d free, want 3", free)
	}
	again := runInstance(t, c, launchIn(subnet))
	if aws.ToString(again.PrivateIpAddress) != "10.0.1.4" {
		t.Errorf("a new instance takes the lowest free address, not %s", aws.ToString(again.PrivateIpAddress))
	}
	if _, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: append(ids, aws.ToString(again.InstanceId))}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(web)}); err != nil {
		t.Errorf("deleting the group once its instances are terminated: %v", err)
	}
	if _, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(subnet)}); err != nil {
		t.Errorf("deleting the subnet once its instances are terminated: %v", err)
	}
}
