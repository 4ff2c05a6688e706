package route53recordset

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// defaultTTL is the TTL of a record set whose spec gives records without one.
const defaultTTL = 300

// desired returns the record set the spec asks for at the full name full.
func desired(r *v1alpha1.Route53RecordSet, full string) *types.ResourceRecordSet {
	s := r.Spec
	rs := &types.ResourceRecordSet{Name: aws.String(full), Type: types.RRType(s.Type)}
	if a := s.AliasTarget; a != nil {
		zone := a.HostedZoneID
		if a.CloudFrontDistributionRef != nil {
			zone = cloudFrontZone
		}
		rs.AliasTarget = &types.AliasTarget{DNSName: aws.String(a.DNSName), HostedZoneId: aws.String(zone), EvaluateTargetHealth: a.EvaluateTargetHealth}
	} else {
		rs.TTL = aws.Int64(defaultTTL)
		if s.TTL != nil {
			rs.TTL = aws.Int64(*s.TTL)
		}
		for _, v := range s.Records {
			rs.ResourceRecords = append(rs.ResourceRecords, types.ResourceRecord{Value: aws.String(v)})
		}
	}
	if s.SetIdentifier != "" {
		rs.SetIdentifier = aws.String(s.SetIdentifier)
		if s.Weight != nil {
			rs.Weight = aws.Int64(*s.Weight)
		}
		rs.Failover = types.ResourceRecordSetFailover(s.Failover)
		rs.Region = types.ResourceRecordSetRegion(s.Region)
	}
	if s.HealthCheckID != "" {
		rs.HealthCheckId = aws.String(s.HealthCheckID)
	}
	return rs
}

// differences returns the fields in which the record set have differs from want, with AWS's
// values and the spec's, in a stable order.
func differences(have, want *types.ResourceRecordSet) ([]string, map[string]managed.Values) {
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, current, desired any, same bool) {
		if !same {
			fields = append(fields, field)
			values[field] = managed.ValuesOf(current, desired)
		}
	}
	hv, wv := recordValues(have), recordValues(want)
	differ("records", hv, wv, slices.Equal(hv, wv))
	differ("ttl", aws.ToInt64(have.TTL), aws.ToInt64(want.TTL), aws.ToInt64(have.TTL) == aws.ToInt64(want.TTL))
	ha, wa := aliasOf(have), aliasOf(want)
	differ("aliasTarget", ha, wa, ha == wa)
	differ("weight", aws.ToInt64(have.Weight), aws.ToInt64(want.Weight), (have.Weight == nil) == (want.Weight == nil) && aws.ToInt64(have.Weight) == aws.ToInt64(want.Weight))
	differ("failover", have.Failover, want.Failover, have.Failover == want.Failover)
	differ("region", have.Region, want.Region, have.Region == want.Region)
	differ("healthCheckID", aws.ToString(have.HealthCheckId), aws.ToString(want.HealthCheckId), aws.ToString(have.HealthCheckId) == aws.ToString(want.HealthCheckId))
	return fields, values
}

// recordValues returns a record set's values made comparable, sorted: names (CNAME, NS, PTR)
// in lower case without their final dot.
func recordValues(rs *types.ResourceRecordSet) []string {
	out := []string{}
	for _, r := range rs.ResourceRecords {
		v := aws.ToString(r.Value)
		switch rs.Type {
		case types.RRTypeCname, types.RRTypeNs, types.RRTypePtr:
			v = strings.ToLower(strings.TrimSuffix(v, "."))
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// aliasKey is an alias target made comparable.
type aliasKey struct {
	DNSName, HostedZoneID string
	EvaluateTargetHealth  bool
}

// aliasOf returns a record set's alias target made comparable: its DNS name in lower case
// without the final dot; the zero alias for none.
func aliasOf(rs *types.ResourceRecordSet) aliasKey {
	a := rs.AliasTarget
	if a == nil {
		return aliasKey{}
	}
	return aliasKey{DNSName: strings.ToLower(strings.TrimSuffix(aws.ToString(a.DNSName), ".")),
		HostedZoneID: strings.TrimPrefix(aws.ToString(a.HostedZoneId), "/hostedzone/"), EvaluateTargetHealth: a.EvaluateTargetHealth}
}
