package ec2

import (
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// instanceRetention is how long a terminated instance stays visible, as on AWS ("Terminated
// instances remain visible after termination (for approximately one hour)").
const instanceRetention = time.Hour

// tokenRetention is how long a RunInstances ClientToken keeps answering after the last instance
// it launched is gone: AWS keeps a token valid for at least 24 hours after termination.
const tokenRetention = 24 * time.Hour

// stateCodes are the codes AWS gives each instance state (the low byte of InstanceState.Code).
var stateCodes = map[types.InstanceStateName]int32{
	types.InstanceStateNamePending: 0, types.InstanceStateNameRunning: 16, types.InstanceStateNameShuttingDown: 32,
	types.InstanceStateNameTerminated: 48, types.InstanceStateNameStopping: 64, types.InstanceStateNameStopped: 80,
}

// instance is one EC2 instance in a VPC subnet, with its primary network interface.
type instance struct {
	core.Readable                        // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, reservation, image, instanceType string
	subnet, vpc                          string
	zone                                 zone
	groups                               []string
	eni, attachment, mac                 string
	privateIP                            netip.Addr
	publicIP                             netip.Addr // zero while it has none (stopped, or never asked for)
	wantsPublicIP                        bool       // it gets a new public address at every start
	keyName, userData                    string
	profile                              *types.IamInstanceProfile
	metadata                             types.InstanceMetadataOptionsResponse
	metadataApplied                      time.Time // when the metadata options leave pending
	monitoring                           bool
	monitoringSettled                    time.Time // when monitoring leaves pending or disabling
	devices                              []types.InstanceBlockDeviceMapping
	disableTermination, disableStop      bool
	shutdownBehavior                     types.ShutdownBehavior
	sourceDestCheck, ebsOptimized        bool
	token                                string
	launchIndex                          int32
	launched                             time.Time
	lifecycle                            lifecycle
	userStopped                          time.Time // when a user last stopped or terminated it
}

// lifecycle is where an instance is in its state machine on the simulation clock: in phase
// (pending, stopping, shutting-down) until until, then settled (running, stopped, terminated).
type lifecycle struct {
	phase, settled types.InstanceStateName
	until          time.Time
}

// state returns the instance's state at now.
func (i *instance) state(now time.Time) types.InstanceStateName {
	if now.Before(i.lifecycle.until) {
		return i.lifecycle.phase
	}
	return i.lifecycle.settled
}

// move starts a transition: phase now, settled once transition has passed.
func (i *instance) move(now time.Time, transition time.Duration, phase, settled types.InstanceStateName) {
	i.lifecycle = lifecycle{phase: phase, settled: settled, until: now.Add(transition)}
}

// holdsAddress reports whether the instance's network interface still holds its private address
// in the subnet: until the instance is terminated.
func (i *instance) holdsAddress(now time.Time) bool {
	return i.state(now) != types.InstanceStateNameTerminated
}

// ending reports whether an instance is shutting down or terminated.
func (i *instance) ending(now time.Time) bool {
	s := i.state(now)
	return s == types.InstanceStateNameShuttingDown || s == types.InstanceStateNameTerminated
}

// expired reports whether a terminated instance has dropped out of sight.
func (i *instance) expired(now time.Time) bool {
	return !i.holdsAddress(now) && now.After(i.lifecycle.until.Add(instanceRetention))
}

// stateOf is an instance state as the SDK shows it, with its code.
func stateOf(name types.InstanceStateName) *types.InstanceState {
	return &types.InstanceState{Code: aws.Int32(stateCodes[name]), Name: name}
}

// reservation is one RunInstances request: the instances it launched, and the request itself
// (without its ClientToken and DryRun) so that a repeated token can be told apart from a reused
// one.
type reservation struct {
	id, token string
	request   ec2.RunInstancesInput
	instances []string
	gone      time.Time // when the last of its instances was forgotten
}

// purgeInstances forgets the terminated instances that have dropped out of sight, and the
// reservations, with their ClientTokens, whose instances have all been gone for tokenRetention.
func (r *region) purgeInstances(now time.Time) {
	for id, i := range r.instances {
		if i.expired(now) {
			delete(r.instances, id)
			r.tags.Delete(id)
			r.reservations[i.reservation].gone = now
		}
	}
	for id, res := range r.reservations {
		live := slices.ContainsFunc(res.instances, func(i string) bool { return r.instances[i] != nil })
		if !live && now.After(res.gone.Add(tokenRetention)) {
			delete(r.reservations, id)
			if r.runTokens[res.token] == id {
				delete(r.runTokens, res.token)
			}
		}
	}
}

// instancesNamed returns the instances ids names, once each in request order, or the not-found
// error naming every missing one; the operations that act on instances take lists of ids so.
func (r *region) instancesNamed(ids []string) ([]*instance, error) {
	if len(ids) == 0 {
		return nil, core.Errorf("MissingParameter", "The request must contain the parameter InstanceId")
	}
	for _, id := range ids {
		if err := instanceKind.check(id); err != nil {
			return nil, err
		}
	}
	var out []*instance
	var absent []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if i, ok := r.instances[id]; ok {
			out = append(out, i)
		} else {
			absent = append(absent, id)
		}
	}
	if len(absent) > 0 {
		return nil, instanceKind.missing(absent...)
	}
	return out, nil
}

// dnsName returns the DNS name AWS gives an address in a region: ip-10-0-1-4.ec2.internal in
// us-east-1, ip-10-0-1-4.eu-west-1.compute.internal elsewhere, and ec2-198-18-0-1.compute-1
// .amazonaws.com, ec2-....eu-west-1.compute.amazonaws.com for public addresses.
func dnsName(a netip.Addr, region string, public bool) string {
	dashed := strings.ReplaceAll(a.String(), ".", "-")
	switch {
	case public && region == "us-east-1":
		return "ec2-" + dashed + ".compute-1.amazonaws.com"
	case public:
		return "ec2-" + dashed + "." + region + ".compute.amazonaws.com"
	case region == "us-east-1":
		return "ip-" + dashed + ".ec2.internal"
	}
	return "ip-" + dashed + "." + region + ".compute.internal"
}

// groupIdentifiers returns security groups as instances list them.
func (r *region) groupIdentifiers(ids []string) []types.GroupIdentifier {
	out := []types.GroupIdentifier{}
	for _, id := range ids {
		g := types.GroupIdentifier{GroupId: aws.String(id)}
		if sg := r.groups[id]; sg != nil {
			g.GroupName = aws.String(sg.name)
		}
		out = append(out, g)
	}
	return out
}

// metadataOptions returns an instance's metadata options with their state at now.
func (i *instance) metadataOptions(now time.Time) *types.InstanceMetadataOptionsResponse {
	m := i.metadata
	m.State = types.InstanceMetadataOptionsStateApplied
	if now.Before(i.metadataApplied) {
		m.State = types.InstanceMetadataOptionsStatePending
	}
	return &m
}

// monitoringState returns whether detailed monitoring is on at now: pending or disabling while
// a change is under way.
func (i *instance) monitoringState(now time.Time) types.MonitoringState {
	switch {
	case now.Before(i.monitoringSettled) && i.monitoring:
		return types.MonitoringStatePending
	case now.Before(i.monitoringSettled):
		return types.MonitoringStateDisabling
	case i.monitoring:
		return types.MonitoringStateEnabled
	}
	return types.MonitoringStateDisabled
}

// describeInstance returns an instance as DescribeInstances shows it. A terminated instance has
// no network interface, addresses or volumes any more.
func (r *region) describeInstance(i *instance, call *core.Call) types.Instance {
	state := i.state(call.Now)
	d := types.Instance{
		InstanceId: aws.String(i.id), ImageId: aws.String(i.image), InstanceType: types.InstanceType(i.instanceType), State: stateOf(state),
		SubnetId: aws.String(i.subnet), VpcId: aws.String(i.vpc), LaunchTime: aws.Time(i.launched),
		AmiLaunchIndex: aws.Int32(i.launchIndex), ClientToken: aws.String(i.token), Architecture: types.ArchitectureValuesX8664,
		Placement:  &types.Placement{AvailabilityZone: aws.String(i.zone.name), AvailabilityZoneId: aws.String(i.zone.id), Tenancy: types.TenancyDefault, GroupName: aws.String("")},
		Monitoring: &types.Monitoring{State: i.monitoringState(call.Now)}, MetadataOptions: i.metadataOptions(call.Now),
		RootDeviceName: aws.String(rootDevice), RootDeviceType: types.DeviceTypeEbs, EbsOptimized: aws.Bool(i.ebsOptimized),
		SourceDestCheck: aws.Bool(i.sourceDestCheck), Hypervisor: types.HypervisorTypeXen, VirtualizationType: types.VirtualizationTypeHvm,
		EnaSupport: aws.Bool(true), IamInstanceProfile: i.profile, SecurityGroups: r.groupIdentifiers(i.groups),
		PrivateDnsName: aws.String(""), PublicDnsName: aws.String(""), StateTransitionReason: aws.String(""),
		BlockDeviceMappings: []types.InstanceBlockDeviceMapping{}, NetworkInterfaces: []types.InstanceNetworkInterface{}, Tags: r.tagList(i.id),
	}
	if i.keyName != "" {
		d.KeyName = aws.String(i.keyName)
	}
	if !i.userStopped.IsZero() {
		d.StateTransitionReason = aws.String("User initiated (" + i.userStopped.UTC().Format("2006-01-02 15:04:05 GMT") + ")")
		d.StateReason = &types.StateReason{Code: aws.String("Client.UserInitiatedShutdown"), Message: aws.String("Client.UserInitiatedShutdown: User initiated shutdown")}
	}
	if state == types.InstanceStateNameTerminated {
		return d
	}
	d.BlockDeviceMappings = i.devices
	d.PrivateIpAddress, d.PrivateDnsName = aws.String(i.privateIP.String()), aws.String(dnsName(i.privateIP, call.Region, false))
	eni := types.InstanceNetworkInterface{
		NetworkInterfaceId: aws.String(i.eni), SubnetId: aws.String(i.subnet), VpcId: aws.String(i.vpc), OwnerId: aws.String(call.Account),
		Description: aws.String(""), InterfaceType: aws.String("interface"), MacAddress: aws.String(i.mac), Status: types.NetworkInterfaceStatusInUse,
		PrivateIpAddress: d.PrivateIpAddress, PrivateDnsName: d.PrivateDnsName, SourceDestCheck: aws.Bool(i.sourceDestCheck),
		Groups: d.SecurityGroups, Ipv6Addresses: []types.InstanceIpv6Address{},
		Attachment: &types.InstanceNetworkInterfaceAttachment{AttachmentId: aws.String(i.attachment), AttachTime: aws.Time(i.launched),
			DeleteOnTermination: aws.Bool(true), DeviceIndex: aws.Int32(0), NetworkCardIndex: aws.Int32(0), Status: types.AttachmentStatusAttached},
	}
	primary := types.InstancePrivateIpAddress{Primary: aws.Bool(true), PrivateIpAddress: d.PrivateIpAddress, PrivateDnsName: d.PrivateDnsName}
	if i.publicIP.IsValid() {
		d.PublicIpAddress = aws.String(i.publicIP.String())
		if v := r.vpcs[i.vpc]; v != nil && v.dnsHostnames {
			d.PublicDnsName = aws.String(dnsName(i.publicIP, call.Region, true))
		}
		assoc := &types.InstanceNetworkInterfaceAssociation{PublicIp: d.PublicIpAddress, PublicDnsName: d.PublicDnsName, IpOwnerId: aws.String("amazon")}
		eni.Association, primary.Association = assoc, assoc
	}
	eni.PrivateIpAddresses = []types.InstancePrivateIpAddress{primary}
	d.NetworkInterfaces = []types.InstanceNetworkInterface{eni}
	return d
}

// usesGroup reports whether an instance that is not terminated is in a security group.
func (i *instance) usesGroup(id string, now time.Time) bool {
	return i.holdsAddress(now) && slices.Contains(i.groups, id)
}

// withInstances runs f, holding the backend's lock, on call's region, its instances out of sight
// forgotten, and the instances ids name; an unknown id is an error.
func withInstances[O any](b *Backend, call *core.Call, ids []string, f func(r *region, list []*instance) (O, error)) (O, error) {
	return withFound(b, call, func(r *region) ([]*instance, error) { r.purgeInstances(call.Now); return r.instancesNamed(ids) }, f)
}

// withInstance runs f, holding the backend's lock, on call's region, its instances out of sight
// forgotten, and instance id.
func withInstance[O any](b *Backend, call *core.Call, id string, f func(r *region, i *instance) (O, error)) (O, error) {
	return withFound(b, call, func(r *region) (*instance, error) {
		r.purgeInstances(call.Now)
		return get(call, r.instances, instanceKind, id)
	}, f)
}
