package ec2

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// defaultInstanceType is the type RunInstances launches when the request names none (EC2 API
// reference, RunInstances, InstanceType: "Default: m1.small").
const defaultInstanceType = "m1.small"

// rootDevice is the root device of every instance the emulator launches, as Amazon Linux AMIs
// name it.
const rootDevice = "/dev/xvda"

// maxUserData is the most user data an instance takes, before base64 encoding.
const maxUserData = 16 * 1024

// instanceTypes are the instance types EC2 offers, as the SDK's model of the API lists them.
var instanceTypes = func() map[string]bool {
	known := map[string]bool{}
	for _, t := range types.InstanceType("").Values() {
		known[string(t)] = true
	}
	return known
}()

// noDefaultSubnet is RunInstances' answer to a request without a subnet once the region's default
// VPC, where it would choose one, has been deleted.
var noDefaultSubnet = core.Errorf("VPCIdNotSpecified", "No default VPC for this user")

// publicPool is the block instances' automatic public addresses come from: 198.18.0.0/15, which
// RFC 2544 reserves for network testing, so that an emulated address never names a real host and
// never meets an Elastic IP (those come from the RFC 5737 blocks).
var publicPool = netip.MustParsePrefix("198.18.0.0/15")

// volumeSizes are the EBS volume types and the sizes, in GiB, each allows.
var volumeSizes = map[types.VolumeType][2]int32{
	types.VolumeTypeGp2: {1, 16384}, types.VolumeTypeGp3: {1, 16384}, types.VolumeTypeIo1: {4, 16384}, types.VolumeTypeIo2: {4, 65536},
	types.VolumeTypeSt1: {125, 16384}, types.VolumeTypeSc1: {125, 16384}, types.VolumeTypeStandard: {1, 1024},
}

// launch is what a RunInstances request asks of every instance it launches, once checked.
type launch struct {
	image, instanceType       string
	min, max                  int
	subnet                    string
	groups                    []string
	publicIP                  *bool // nil: as the subnet's MapPublicIpOnLaunch says
	devices                   []device
	metadata                  types.InstanceMetadataOptionsResponse
	tags                      map[string]string
	shutdownBehavior          types.ShutdownBehavior
	profile                   *types.IamInstanceProfile
	userData, keyName         string
	monitoring                bool
	disableTermination        bool
	disableStop, ebsOptimized bool
}

// device is one EBS volume of a block device mapping; each instance gets a volume of its own.
type device struct {
	name                string
	deleteOnTermination bool
}

// checkInstanceType refuses an instance type EC2 does not offer.
func checkInstanceType(t string) error {
	if !instanceTypes[t] {
		return core.Errorf("InvalidParameterValue", "Invalid value '%s' for InstanceType.", t)
	}
	return nil
}

// checkUserData validates user data as sent: base64 of at most 16 KB.
func checkUserData(data string) error {
	raw, err := base64.StdEncoding.DecodeString(data)
	switch {
	case err != nil:
		return core.Errorf("InvalidParameterValue", "Invalid BASE64 encoding of user data.")
	case len(raw) > maxUserData:
		return core.Errorf("InvalidParameterValue", "User data is limited to %d bytes", maxUserData)
	}
	return nil
}

// checkShutdownBehavior validates InstanceInitiatedShutdownBehavior, stop when unset.
func checkShutdownBehavior(b types.ShutdownBehavior) (types.ShutdownBehavior, error) {
	return enumParam(b, "instanceInitiatedShutdownBehavior", types.ShutdownBehaviorStop, types.ShutdownBehaviorTerminate)
}

// metadataOptions applies requested metadata options to current ones, checking each value.
func metadataOptions(cur types.InstanceMetadataOptionsResponse, req types.InstanceMetadataOptionsRequest) (types.InstanceMetadataOptionsResponse, error) {
	switch req.HttpTokens {
	case "":
	case types.HttpTokensStateOptional, types.HttpTokensStateRequired:
		cur.HttpTokens = req.HttpTokens
	default:
		return cur, core.Errorf("InvalidParameterValue", "Value (%s) for parameter HttpTokens is invalid.", req.HttpTokens)
	}
	if req.HttpPutResponseHopLimit != nil {
		if n := aws.ToInt32(req.HttpPutResponseHopLimit); n < 1 || n > 64 {
			return cur, core.Errorf("InvalidParameterValue", "Value (%d) for parameter HttpPutResponseHopLimit is invalid. Possible values: Integers from 1 to 64.", n)
		}
		cur.HttpPutResponseHopLimit = req.HttpPutResponseHopLimit
	}
	for _, o := range []struct {
		param string
		value string
		set   func(v string)
	}{
		{"HttpEndpoint", string(req.HttpEndpoint), func(v string) { cur.HttpEndpoint = types.InstanceMetadataEndpointState(v) }},
		{"HttpProtocolIpv6", string(req.HttpProtocolIpv6), func(v string) { cur.HttpProtocolIpv6 = types.InstanceMetadataProtocolState(v) }},
		{"InstanceMetadataTags", string(req.InstanceMetadataTags), func(v string) { cur.InstanceMetadataTags = types.InstanceMetadataTagsState(v) }},
	} {
		switch o.value {
		case "":
		case "enabled", "disabled":
			o.set(o.value)
		default:
			return cur, core.Errorf("InvalidParameterValue", "Value (%s) for parameter %s is invalid.", o.value, o.param)
		}
	}
	return cur, nil
}

// defaultMetadata are the metadata options of an instance launched without any, from an AMI
// that sets no ImdsSupport: IMDSv2 optional, the endpoint on, one hop.
func defaultMetadata() types.InstanceMetadataOptionsResponse {
	return types.InstanceMetadataOptionsResponse{HttpTokens: types.HttpTokensStateOptional, HttpEndpoint: types.InstanceMetadataEndpointStateEnabled,
		HttpPutResponseHopLimit: aws.Int32(1), HttpProtocolIpv6: types.InstanceMetadataProtocolStateDisabled,
		InstanceMetadataTags: types.InstanceMetadataTagsStateDisabled}
}

// blockDevices checks a request's block device mappings and returns the EBS volumes each
// instance gets: the root volume first (one is added when the mappings do not name the root
// device), then the others in request order. Instance store and NoDevice entries get no volume.
func blockDevices(mappings []types.BlockDeviceMapping) ([]device, error) {
	out := []device{{name: rootDevice, deleteOnTermination: true}}
	seen := map[string]bool{}
	for _, m := range mappings {
		name := aws.ToString(m.DeviceName)
		if err := required("BlockDeviceMapping.DeviceName", m.DeviceName); err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, core.Errorf("InvalidBlockDeviceMapping", "The device '%s' is used in more than one block-device mapping", name)
		}
		seen[name] = true
		if m.Ebs == nil || m.NoDevice != nil || m.VirtualName != nil {
			continue
		}
		if err := checkVolume(m.Ebs); err != nil {
			return nil, err
		}
		d := device{name: name, deleteOnTermination: m.Ebs.DeleteOnTermination == nil || *m.Ebs.DeleteOnTermination}
		if name == rootDevice {
			out[0] = d
		} else {
			out = append(out, d)
		}
	}
	return out, nil
}

// checkVolume validates the EBS volume of a block device mapping: its type, its size for that
// type, and a KMS key only on an encrypted volume.
func checkVolume(ebs *types.EbsBlockDevice) error {
	vt := ebs.VolumeType
	if vt == "" {
		vt = types.VolumeTypeGp2
	}
	sizes, ok := volumeSizes[vt]
	switch {
	case !ok:
		return core.Errorf("InvalidParameterValue", "Value (%s) for parameter volumeType is invalid.", vt)
	case ebs.VolumeSize != nil && (*ebs.VolumeSize < sizes[0] || *ebs.VolumeSize > sizes[1]):
		return core.Errorf("InvalidParameterValue", "Volume of %d GiB is out of range for volume type %s (%d to %d GiB).", *ebs.VolumeSize, vt, sizes[0], sizes[1])
	case ebs.KmsKeyId != nil && !aws.ToBool(ebs.Encrypted):
		return core.Errorf("InvalidParameterDependency", "The parameter KmsKeyId requires the parameter Encrypted to be set.")
	}
	return nil
}

// launchTags returns the tags TagSpecifications give the instances. Tags for their volumes and
// network interfaces are accepted and not kept: the emulator has no volumes or interfaces of
// their own to put them on.
func launchTags(specs []types.TagSpecification) (map[string]string, error) {
	var mine []types.TagSpecification
	for _, s := range specs {
		switch s.ResourceType {
		case types.ResourceTypeInstance:
			mine = append(mine, s)
		case types.ResourceTypeVolume, types.ResourceTypeNetworkInterface:
		default:
			return nil, core.Errorf("InvalidParameterValue", "'%s' is not a valid taggable resource type for this operation.", s.ResourceType)
		}
	}
	return specTags(mine, types.ResourceTypeInstance)
}

// checkLaunch validates what a RunInstances request says on its own, before any resource it
// names is looked up.
func checkLaunch(call *core.Call, in *ec2.RunInstancesInput) (*launch, error) {
	if in.LaunchTemplate != nil || in.PrivateIpAddress != nil || in.Ipv6AddressCount != nil || len(in.Ipv6Addresses) > 0 || in.Placement != nil && in.Placement.HostId != nil {
		return nil, core.Errorf("UnsupportedOperation", "The emulator launches instances without launch templates, chosen private or IPv6 addresses, or dedicated hosts.")
	}
	if err := required("ImageId", in.ImageId); err != nil {
		return nil, err
	}
	l := &launch{image: aws.ToString(in.ImageId), instanceType: string(in.InstanceType), min: int(aws.ToInt32(in.MinCount)), max: int(aws.ToInt32(in.MaxCount)),
		subnet: aws.ToString(in.SubnetId), groups: in.SecurityGroupIds, keyName: aws.ToString(in.KeyName), userData: aws.ToString(in.UserData),
		monitoring:         in.Monitoring != nil && aws.ToBool(in.Monitoring.Enabled),
		disableTermination: aws.ToBool(in.DisableApiTermination), disableStop: aws.ToBool(in.DisableApiStop), ebsOptimized: aws.ToBool(in.EbsOptimized)}
	if err := amiKind.check(l.image); err != nil {
		return nil, err
	}
	if l.instanceType == "" {
		l.instanceType = defaultInstanceType
	}
	if err := checkInstanceType(l.instanceType); err != nil {
		return nil, err
	}
	switch {
	case l.min < 1:
		return nil, core.Errorf("InvalidParameterValue", "Value (%d) for parameter minCount is invalid. Expected a positive integer.", l.min)
	case l.max < l.min:
		return nil, core.Errorf("InvalidParameterValue", "Value (%d) for parameter maxCount is invalid. maxCount must be greater than or equal to minCount.", l.max)
	}
	if in.UserData != nil {
		if err := checkUserData(l.userData); err != nil {
			return nil, err
		}
	}
	var err error
	if l.profile, err = instanceProfile(call, in.IamInstanceProfile); err != nil {
		return nil, err
	}
	if l.shutdownBehavior, err = checkShutdownBehavior(in.InstanceInitiatedShutdownBehavior); err != nil {
		return nil, err
	}
	l.metadata = defaultMetadata()
	if m := in.MetadataOptions; m != nil {
		if l.metadata, err = metadataOptions(l.metadata, *m); err != nil {
			return nil, err
		}
	}
	if l.devices, err = blockDevices(in.BlockDeviceMappings); err != nil {
		return nil, err
	}
	if err := l.networkInterface(in); err != nil {
		return nil, err
	}
	if l.tags, err = launchTags(in.TagSpecifications); err != nil {
		return nil, err
	}
	return l, nil
}

// networkInterface takes the subnet, groups and public address from the request's primary
// network interface, the alternative to SubnetId and SecurityGroupIds.
func (l *launch) networkInterface(in *ec2.RunInstancesInput) error {
	switch {
	case len(in.NetworkInterfaces) == 0:
		return nil
	case len(in.NetworkInterfaces) > 1 || aws.ToInt32(in.NetworkInterfaces[0].DeviceIndex) != 0 || in.NetworkInterfaces[0].NetworkInterfaceId != nil:
		return core.Errorf("UnsupportedOperation", "The emulator launches instances with one new network interface, at device index 0.")
	case in.SubnetId != nil:
		return core.Errorf("InvalidParameterCombination", "Network interfaces and an instance-level subnet ID may not be specified on the same request")
	case len(in.SecurityGroupIds) > 0 || len(in.SecurityGroups) > 0:
		return core.Errorf("InvalidParameterCombination", "Network interfaces and an instance-level security groups may not be specified on the same request")
	}
	nic := in.NetworkInterfaces[0]
	l.subnet, l.groups, l.publicIP = aws.ToString(nic.SubnetId), nic.Groups, nic.AssociatePublicIpAddress
	return nil
}

// instanceProfile returns the instance profile a request names by ARN or name, as instances
// show it: its ARN and an id that stays the same for the same profile.
func instanceProfile(call *core.Call, spec *types.IamInstanceProfileSpecification) (*types.IamInstanceProfile, error) {
	if spec == nil || spec.Arn == nil && spec.Name == nil {
		return nil, nil
	}
	arn := aws.ToString(spec.Arn)
	if arn == "" {
		arn = "arn:aws:iam::" + call.Account + ":instance-profile/" + aws.ToString(spec.Name)
	} else if !strings.HasPrefix(arn, "arn:aws:iam::") || !strings.Contains(arn, ":instance-profile/") {
		return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter iamInstanceProfile.arn is invalid. Invalid IAM Instance Profile ARN", arn)
	}
	sum := sha256.Sum256([]byte(arn))
	return &types.IamInstanceProfile{Arn: aws.String(arn), Id: aws.String("AIPA" + base32.StdEncoding.EncodeToString(sum[:])[:17])}, nil
}

// launchSubnet returns the subnet a launch goes to, with the names of the security groups it
// names in the default VPC: the subnet the request names, where group names are refused, or the
// default subnet of the zone Placement asks for (or of the first zone).
func (r *region) launchSubnet(call *core.Call, l *launch, in *ec2.RunInstancesInput) (*subnet, []string, error) {
	if l.subnet != "" {
		if len(in.SecurityGroups) > 0 {
			return nil, nil, core.Errorf("InvalidParameterCombination", "The parameter groupName cannot be used with the parameter subnet")
		}
		s, err := get(call, r.subnets, subnetKind, l.subnet)
		return s, nil, err
	}
	var zoneName string
	if in.Placement != nil {
		zoneName = aws.ToString(in.Placement.AvailabilityZone)
	}
	s, err := r.defaultSubnet(zoneName)
	return s, in.SecurityGroups, err
}

// launchGroups resolves the security groups of a launch: each must exist and be in the
// subnet's VPC; with none named, the VPC's default group.
func (r *region) launchGroups(call *core.Call, ids []string, s *subnet) ([]string, error) {
	if len(ids) == 0 {
		for _, g := range r.groups {
			if g.vpc == s.vpc && g.isDefault {
				return []string{g.id}, nil
			}
		}
	}
	var out []string
	for _, id := range ids {
		g, err := get(call, r.groups, sgKind, id)
		if err != nil {
			return nil, err
		}
		if g.vpc != s.vpc {
			return nil, core.Errorf("InvalidParameter", "Security group %s and subnet %s belong to different networks.", g.id, s.id)
		}
		if !slices.Contains(out, g.id) {
			out = append(out, g.id)
		}
	}
	return out, nil
}

// publicAddresses returns n public addresses no instance of the region holds, going on from the
// last one handed out so that a restarted instance gets a new address, as on AWS.
func (r *region) publicAddresses(n int) ([]netip.Addr, error) {
	held := map[netip.Addr]bool{}
	for _, i := range r.instances {
		if i.publicIP.IsValid() {
			held[i.publicIP] = true
		}
	}
	base := publicPool.Addr().As4()
	hosts := uint32(1)<<(32-publicPool.Bits()) - 2 // without the network and broadcast addresses
	var out []netip.Addr
	for tries := uint32(0); len(out) < n && tries < hosts; tries++ {
		r.publicSeq = r.publicSeq%hosts + 1
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], binary.BigEndian.Uint32(base[:])+r.publicSeq)
		if a := netip.AddrFrom4(b); !held[a] {
			out = append(out, a)
		}
	}
	if len(out) < n {
		return nil, core.Errorf("AddressLimitExceeded", "The maximum number of public addresses has been reached.")
	}
	return out, nil
}

// macAddress returns a MAC address of the form AWS gives network interfaces.
func macAddress() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return fmt.Sprintf("0e:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3], b[4])
}

// dryRun is EC2's answer to a request with DryRun set that would have succeeded.
func dryRun(flag *bool) error {
	if aws.ToBool(flag) {
		return &core.APIError{Code: "DryRunOperation", Status: 412, Message: "Request would have succeeded, but DryRun flag is set."}
	}
	return nil
}

// describeReservation returns a reservation as RunInstances and DescribeInstances show it, with
// the instances of it that are still in sight.
func (r *region) describeReservation(res *reservation, call *core.Call) types.Reservation {
	d := types.Reservation{ReservationId: aws.String(res.id), OwnerId: aws.String(call.Account), Groups: []types.GroupIdentifier{}, Instances: []types.Instance{}}
	for _, id := range res.instances {
		if i := r.instances[id]; i != nil {
			d.Instances = append(d.Instances, r.describeInstance(i, call))
		}
	}
	return d
}

// runInstances launches instances into a subnet: as many as MaxCount asks and the subnet has
// addresses for, and at least MinCount. They are pending, then running on the clock. A repeated
// ClientToken answers the reservation it launched; with other parameters, it is refused.
func (b *Backend) runInstances(call *core.Call, in *ec2.RunInstancesInput) (*ec2.RunInstancesOutput, error) {
	l, err := checkLaunch(call, in)
	if err != nil {
		return nil, err
	}
	request := *in
	request.ClientToken, request.DryRun = nil, nil
	return core.Locked(b.state, call, func(r *region) (*ec2.RunInstancesOutput, error) {
		r.purgeInstances(call.Now)
		token := aws.ToString(in.ClientToken)
		if res, ok := r.reservations[r.runTokens[token]]; ok && token != "" {
			if !reflect.DeepEqual(res.request, request) {
				return nil, core.Errorf("IdempotentParameterMismatch", "Arguments on this idempotent request are inconsistent with arguments used in previous request(s).")
			}
			return runOutput(r.describeReservation(res, call)), nil
		}
		s, names, err := r.launchSubnet(call, l, in)
		if err != nil {
			return nil, err
		}
		ids, err := r.groupIDs(call, l.groups, names)
		if err != nil {
			return nil, err
		}
		groups, err := r.launchGroups(call, ids, s)
		if err != nil {
			return nil, err
		}
		addrs := r.privateAddresses(s, call.Now, l.max)
		if len(addrs) < l.min {
			return nil, core.Errorf("InsufficientFreeAddressesInSubnet", "There are not enough free addresses in subnet '%s' to satisfy the requested number of instances.", s.id)
		}
		public := s.mapPublicIP
		if l.publicIP != nil {
			public = *l.publicIP
		}
		var publics []netip.Addr
		if public {
			if publics, err = r.publicAddresses(len(addrs)); err != nil {
				return nil, err
			}
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		res := &reservation{id: newID("r"), token: token, request: request}
		for range addrs {
			res.instances = append(res.instances, newID("i"))
		}
		if err := r.tags.Merge(l.tags, res.instances...); err != nil {
			return nil, err
		}
		for n, id := range res.instances {
			i := &instance{Readable: core.ReadableAfter(call), id: id, reservation: res.id, image: l.image, instanceType: l.instanceType, subnet: s.id, vpc: s.vpc, zone: s.zone,
				groups: groups, eni: newID("eni"), attachment: newID("eni-attach"), mac: macAddress(), privateIP: addrs[n], wantsPublicIP: public,
				keyName: l.keyName, userData: l.userData, profile: l.profile, metadata: l.metadata, metadataApplied: call.Now.Add(call.Transition),
				monitoring: l.monitoring, disableTermination: l.disableTermination, disableStop: l.disableStop, shutdownBehavior: l.shutdownBehavior,
				sourceDestCheck: true, ebsOptimized: l.ebsOptimized, token: token, launchIndex: int32(n), launched: call.Now}
			if l.monitoring {
				i.monitoringSettled = call.Now.Add(call.Transition)
			}
			for _, d := range l.devices {
				i.devices = append(i.devices, types.InstanceBlockDeviceMapping{DeviceName: aws.String(d.name), Ebs: &types.EbsInstanceBlockDevice{
					VolumeId: aws.String(newID("vol")), Status: types.AttachmentStatusAttached, AttachTime: aws.Time(call.Now),
					DeleteOnTermination: aws.Bool(d.deleteOnTermination)}})
			}
			if public {
				i.publicIP = publics[n]
			}
			i.move(call.Now, call.Transition, types.InstanceStateNamePending, types.InstanceStateNameRunning)
			r.instances[id] = i
		}
		r.reservations[res.id] = res
		if token != "" {
			r.runTokens[token] = res.id
		}
		return runOutput(r.describeReservation(res, call)), nil
	})
}

// runOutput is RunInstances' answer: the reservation.
func runOutput(d types.Reservation) *ec2.RunInstancesOutput {
	return &ec2.RunInstancesOutput{ReservationId: d.ReservationId, OwnerId: d.OwnerId, Groups: d.Groups, Instances: d.Instances}
}
