package ec2

import (
	"path"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// pathMatch matches EC2 filter wildcards (* and ?), which path.Match also understands.
func pathMatch(pattern, value string) (bool, error) { return path.Match(pattern, value) }

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

func (b *Backend) describeAvailabilityZones(call *core.Call, in *ec2.DescribeAvailabilityZonesInput) (*ec2.DescribeAvailabilityZonesOutput, error) {
	out := &ec2.DescribeAvailabilityZonesOutput{AvailabilityZones: []types.AvailabilityZone{}}
	names := map[string]bool{}
	for _, n := range in.ZoneNames {
		names[n] = true
	}
	for i, l := range zoneLetters(call.Region) {
		name := call.Region + string(l)
		if len(names) > 0 && !names[name] {
			continue
		}
		id := zoneID(call.Region) + "-az" + string(rune('1'+i))
		ok, err := matchFilters(in.Filters, nil, map[string]string{"zone-name": name, "zone-id": id, "region-name": call.Region,
			"state": "available", "zone-type": "availability-zone", "opt-in-status": "opt-in-not-required", "group-name": call.Region})
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
