package ec2

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// zoneLetters are the availability zones the emulator gives each region: us-east-1 has six,
// as on AWS; other regions three.
func zoneLetters(region string) string {
	if region == "us-east-1" {
		return "abcdef"
	}
	return "abc"
}

// zoneID abbreviates a region as AWS's zone IDs do: us-east-1 -> use1.
func zoneID(region string) string {
	parts := strings.Split(region, "-")
	if len(parts) < 3 {
		return region
	}
	return parts[0] + parts[1][:1] + parts[len(parts)-1]
}

// zone is one availability zone: its name (us-east-1a) and ID (use1-az1).
type zone struct{ name, id string }

// zones returns the availability zones of a region.
func zones(region string) []zone {
	var out []zone
	for i, l := range zoneLetters(region) {
		out = append(out, zone{region + string(l), zoneID(region) + "-az" + string(rune('1'+i))})
	}
	return out
}

func (b *Backend) describeAvailabilityZones(call *core.Call, in *ec2.DescribeAvailabilityZonesInput) (*ec2.DescribeAvailabilityZonesOutput, error) {
	out := &ec2.DescribeAvailabilityZonesOutput{AvailabilityZones: []types.AvailabilityZone{}}
	names := map[string]bool{}
	for _, n := range in.ZoneNames {
		names[n] = true
	}
	for _, z := range zones(call.Region) {
		name, id := z.name, z.id
		if len(names) > 0 && !names[name] {
			continue
		}
		ok, err := matchFilters(in.Filters, nil, fields{"zone-name": {name}, "zone-id": {id}, "region-name": {call.Region},
			"state": {"available"}, "zone-type": {"availability-zone"}, "opt-in-status": {"opt-in-not-required"}, "group-name": {call.Region}})
		if err != nil {
			return nil, err
		}
		if ok {
			out.AvailabilityZones = append(out.AvailabilityZones, types.AvailabilityZone{ZoneName: aws.String(name), ZoneId: aws.String(id),
				RegionName: aws.String(call.Region), State: types.AvailabilityZoneStateAvailable, ZoneType: aws.String("availability-zone"),
				OptInStatus: types.AvailabilityZoneOptInStatusOptInNotRequired, GroupName: aws.String(call.Region)})
		}
	}
	return out, nil
}
