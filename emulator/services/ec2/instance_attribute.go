package ec2

import (
	"encoding/base64"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// attributeChange is a change a ModifyInstanceAttribute request asks for, checked: whether the
// instance must be stopped for it, and how to make it.
type attributeChange struct {
	whenStopped bool
	apply       func(i *instance)
}

// attributeChanges checks the changes a ModifyInstanceAttribute request asks for, given as
// their own parameters or as Attribute and Value. The attributes the emulator does not model
// (kernel, ramdisk, SR-IOV, ENA, enclaves, block device mappings) are refused.
func (r *region) attributeChanges(call *core.Call, in *ec2.ModifyInstanceAttributeInput, i *instance) ([]attributeChange, error) {
	if in.Kernel != nil || in.Ramdisk != nil || in.SriovNetSupport != nil || in.EnaSupport != nil || in.EnclaveOptions != nil || len(in.BlockDeviceMappings) > 0 {
		return nil, core.Errorf("UnsupportedOperation", "The emulator modifies only the instanceType, userData, disableApiTermination, disableApiStop, groupSet, instanceInitiatedShutdownBehavior, sourceDestCheck and ebsOptimized attributes.")
	}
	instanceType, shutdown := in.InstanceType, in.InstanceInitiatedShutdownBehavior
	termination, stop, sourceDest, ebs := in.DisableApiTermination, in.DisableApiStop, in.SourceDestCheck, in.EbsOptimized
	var userData *string
	if in.UserData != nil {
		userData = aws.String(base64.StdEncoding.EncodeToString(in.UserData.Value))
	}
	if in.Attribute != "" {
		value := aws.ToString(in.Value)
		flag := func() (*types.AttributeBooleanValue, error) {
			b, err := strconv.ParseBool(value)
			if err != nil {
				return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter value is invalid. Expected 'true' or 'false'.", value)
			}
			return &types.AttributeBooleanValue{Value: aws.Bool(b)}, nil
		}
		var err error
		switch in.Attribute {
		case types.InstanceAttributeNameInstanceType:
			instanceType = &types.AttributeValue{Value: in.Value}
		case types.InstanceAttributeNameUserData:
			userData = in.Value
		case types.InstanceAttributeNameInstanceInitiatedShutdownBehavior:
			shutdown = &types.AttributeValue{Value: in.Value}
		case types.InstanceAttributeNameDisableApiTermination:
			termination, err = flag()
		case types.InstanceAttributeNameDisableApiStop:
			stop, err = flag()
		case types.InstanceAttributeNameSourceDestCheck:
			sourceDest, err = flag()
		case types.InstanceAttributeNameEbsOptimized:
			ebs, err = flag()
		default:
			return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter attribute is invalid. The emulator cannot modify it.", in.Attribute)
		}
		if err != nil {
			return nil, err
		}
	}
	var out []attributeChange
	if instanceType != nil {
		t := aws.ToString(instanceType.Value)
		if checkInstanceType(t) != nil {
			return nil, core.Errorf("InvalidInstanceAttributeValue", "Value (%s) for parameter instanceType is invalid.", t)
		}
		out = append(out, attributeChange{true, func(i *instance) { i.instanceType = t }})
	}
	if userData != nil {
		data := aws.ToString(userData)
		if err := checkUserData(data); err != nil {
			return nil, err
		}
		out = append(out, attributeChange{true, func(i *instance) { i.userData = data }})
	}
	if shutdown != nil {
		v := types.ShutdownBehavior(aws.ToString(shutdown.Value))
		b, err := checkShutdownBehavior(v)
		if err != nil || v == "" {
			return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter instanceInitiatedShutdownBehavior is invalid.", aws.ToString(shutdown.Value))
		}
		out = append(out, attributeChange{false, func(i *instance) { i.shutdownBehavior = b }})
	}
	if len(in.Groups) > 0 {
		groups, err := r.launchGroups(call, in.Groups, r.subnets[i.subnet])
		if err != nil {
			return nil, err
		}
		out = append(out, attributeChange{false, func(i *instance) { i.groups = groups }})
	}
	for _, b := range []struct {
		name  types.InstanceAttributeName
		value *types.AttributeBooleanValue
		field func(i *instance) *bool
	}{
		{types.InstanceAttributeNameDisableApiTermination, termination, func(i *instance) *bool { return &i.disableTermination }},
		{types.InstanceAttributeNameDisableApiStop, stop, func(i *instance) *bool { return &i.disableStop }},
		{types.InstanceAttributeNameSourceDestCheck, sourceDest, func(i *instance) *bool { return &i.sourceDestCheck }},
		{types.InstanceAttributeNameEbsOptimized, ebs, func(i *instance) *bool { return &i.ebsOptimized }},
	} {
		if b.value != nil {
			v := aws.ToBool(b.value.Value)
			out = append(out, attributeChange{b.name == types.InstanceAttributeNameEbsOptimized, func(i *instance) { *b.field(i) = v }})
		}
	}
	return out, nil
}

// modifyInstanceAttribute changes one attribute of an instance, as AWS allows per call. The
// instance type, user data and EBS optimization change only while the instance is stopped.
func (b *Backend) modifyInstanceAttribute(call *core.Call, in *ec2.ModifyInstanceAttributeInput) (*ec2.ModifyInstanceAttributeOutput, error) {
	return withInstance(b, call, aws.ToString(in.InstanceId), func(r *region, i *instance) (*ec2.ModifyInstanceAttributeOutput, error) {
		if i.ending(call.Now) {
			return nil, incorrectState(i.id, "modified")
		}
		changes, err := r.attributeChanges(call, in, i)
		switch {
		case err != nil:
			return nil, err
		case len(changes) == 0:
			return nil, core.Errorf("MissingParameter", "The request must contain the parameter attribute")
		case len(changes) > 1:
			return nil, core.Errorf("InvalidParameterCombination", "Only one attribute can be modified at a time")
		}
		c := changes[0]
		if c.whenStopped && i.state(call.Now) != types.InstanceStateNameStopped {
			return nil, core.Errorf("IncorrectInstanceState", "The instance '%s' is not in the 'stopped' state.", i.id)
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		c.apply(i)
		return &ec2.ModifyInstanceAttributeOutput{}, nil
	})
}

// describeInstanceAttribute answers one attribute of an instance.
func (b *Backend) describeInstanceAttribute(call *core.Call, in *ec2.DescribeInstanceAttributeInput) (*ec2.DescribeInstanceAttributeOutput, error) {
	return withInstance(b, call, aws.ToString(in.InstanceId), func(r *region, i *instance) (*ec2.DescribeInstanceAttributeOutput, error) {
		out := &ec2.DescribeInstanceAttributeOutput{InstanceId: aws.String(i.id)}
		value := func(s string) *types.AttributeValue {
			if s == "" {
				return &types.AttributeValue{}
			}
			return &types.AttributeValue{Value: aws.String(s)}
		}
		flag := func(v bool) *types.AttributeBooleanValue { return &types.AttributeBooleanValue{Value: aws.Bool(v)} }
		switch in.Attribute {
		case "":
			return nil, core.Errorf("MissingParameter", "The request must contain the parameter attribute")
		case types.InstanceAttributeNameInstanceType:
			out.InstanceType = value(i.instanceType)
		case types.InstanceAttributeNameUserData:
			out.UserData = value(i.userData)
		case types.InstanceAttributeNameDisableApiTermination:
			out.DisableApiTermination = flag(i.disableTermination)
		case types.InstanceAttributeNameDisableApiStop:
			out.DisableApiStop = flag(i.disableStop)
		case types.InstanceAttributeNameInstanceInitiatedShutdownBehavior:
			out.InstanceInitiatedShutdownBehavior = value(string(i.shutdownBehavior))
		case types.InstanceAttributeNameSourceDestCheck:
			out.SourceDestCheck = flag(i.sourceDestCheck)
		case types.InstanceAttributeNameEbsOptimized:
			out.EbsOptimized = flag(i.ebsOptimized)
		case types.InstanceAttributeNameGroupSet:
			out.Groups = r.groupIdentifiers(i.groups)
		case types.InstanceAttributeNameRootDeviceName:
			out.RootDeviceName = value(rootDevice)
		case types.InstanceAttributeNameBlockDeviceMapping:
			out.BlockDeviceMappings = r.describeInstance(i, call).BlockDeviceMappings
		case types.InstanceAttributeNameKernel:
			out.KernelId = value("")
		case types.InstanceAttributeNameRamdisk:
			out.RamdiskId = value("")
		case types.InstanceAttributeNameProductCodes:
			out.ProductCodes = []types.ProductCode{}
		case types.InstanceAttributeNameSriovNetSupport:
			out.SriovNetSupport = value("")
		case types.InstanceAttributeNameEnaSupport:
			out.EnaSupport = flag(true)
		case types.InstanceAttributeNameEnclaveOptions:
			out.EnclaveOptions = &types.EnclaveOptions{Enabled: aws.Bool(false)}
		default:
			return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter attribute is invalid. Unknown attribute.", in.Attribute)
		}
		return out, nil
	})
}
