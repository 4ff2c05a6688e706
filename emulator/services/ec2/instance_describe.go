package ec2

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// reserved is one instance as DescribeInstances lists it, with the reservation it goes under.
type reserved struct {
	reservation string
	instance    types.Instance
}

// instanceFields are an instance's values for DescribeInstances' filters.
func instanceFields(i *instance, d types.Instance, call *core.Call) fields {
	f := fields{
		"instance-id": {i.id}, "reservation-id": {i.reservation}, "instance-state-name": {string(d.State.Name)},
		"instance-state-code": {strconv.Itoa(int(aws.ToInt32(d.State.Code)))}, "instance-type": {i.instanceType}, "image-id": {i.image},
		"subnet-id": {i.subnet}, "vpc-id": {i.vpc}, "availability-zone": {i.zone.name}, "client-token": {i.token}, "key-name": {i.keyName},
		"owner-id": {call.Account}, "architecture": {string(d.Architecture)}, "root-device-type": {string(d.RootDeviceType)},
		"root-device-name": {rootDevice}, "launch-time": {i.launched.UTC().Format("2006-01-02T15:04:05.000Z")},
		"ami-launch-index": {strconv.Itoa(int(i.launchIndex))}, "launch-index": {strconv.Itoa(int(i.launchIndex))},
		"monitoring-state": {string(d.Monitoring.State)}, "source-dest-check": boolText(i.sourceDestCheck),
		"private-ip-address": text(d.PrivateIpAddress), "private-dns-name": text(d.PrivateDnsName), "ip-address": text(d.PublicIpAddress),
		"dns-name": text(d.PublicDnsName), "instance.group-id": i.groups,
		"metadata-options.http-tokens": {string(i.metadata.HttpTokens)}, "metadata-options.http-endpoint": {string(i.metadata.HttpEndpoint)},
		"metadata-options.http-put-response-hop-limit": {strconv.Itoa(int(aws.ToInt32(i.metadata.HttpPutResponseHopLimit)))},
	}
	for _, g := range d.SecurityGroups {
		f["instance.group-name"] = append(f["instance.group-name"], aws.ToString(g.GroupName))
	}
	for _, n := range d.NetworkInterfaces {
		f["network-interface.network-interface-id"] = append(f["network-interface.network-interface-id"], aws.ToString(n.NetworkInterfaceId))
	}
	for _, m := range d.BlockDeviceMappings {
		f["block-device-mapping.device-name"] = append(f["block-device-mapping.device-name"], aws.ToString(m.DeviceName))
		f["block-device-mapping.volume-id"] = append(f["block-device-mapping.volume-id"], aws.ToString(m.Ebs.VolumeId))
	}
	if i.profile != nil {
		f["iam-instance-profile.arn"] = []string{aws.ToString(i.profile.Arn)}
	}
	return f
}

// describeInstances lists instances, grouped by the reservation that launched them, one page of
// instances at a time. As on AWS, a request names instances or pages through them, not both.
func (b *Backend) describeInstances(call *core.Call, in *ec2.DescribeInstancesInput) (*ec2.DescribeInstancesOutput, error) {
	if len(in.InstanceIds) > 0 && in.MaxResults != nil {
		return nil, core.Errorf("InvalidParameterCombination", "The parameter instancesSet cannot be used with the parameter maxResults")
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeInstancesOutput, error) {
		r.purgeInstances(call.Now)
		items, next, err := describe(call, r.instances, instanceKind, in.InstanceIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, i *instance) view[reserved] {
			d := r.describeInstance(i, call)
			return view[reserved]{reserved{i.reservation, d}, d.Tags, instanceFields(i, d, call)}
		})
		if err != nil {
			return nil, err
		}
		out := &ec2.DescribeInstancesOutput{Reservations: []types.Reservation{}, NextToken: next}
		at := map[string]int{} // reservation id -> its index in out.Reservations
		for _, item := range items {
			n, ok := at[item.reservation]
			if !ok {
				n, at[item.reservation] = len(out.Reservations), len(out.Reservations)
				out.Reservations = append(out.Reservations, types.Reservation{ReservationId: aws.String(item.reservation), OwnerId: aws.String(call.Account),
					Groups: []types.GroupIdentifier{}})
			}
			out.Reservations[n].Instances = append(out.Reservations[n].Instances, item.instance)
		}
		return out, nil
	})
}
