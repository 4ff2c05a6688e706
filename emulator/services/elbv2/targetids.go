package elbv2

import (
	"net/netip"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// instanceID and lambdaARN match the ids of instance and Lambda function targets.
var (
	instanceID = regexp.MustCompile(`^i-[0-9a-f]{8}([0-9a-f]{9})?$`)
	lambdaARN  = regexp.MustCompile(`^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9$_-]+)?$`)
)

// checkTargetID checks that an id names a target of tg's target type.
func (r *region) checkTargetID(tg *targetGroup, id, zone string) error {
	invalid := core.Errorf("InvalidTarget", "The following targets are not valid for target type '%s': '%s'", tg.targetType, id)
	switch tg.targetType {
	case types.TargetTypeEnumInstance:
		if !instanceID.MatchString(id) {
			return invalid
		}
	case types.TargetTypeEnumIp:
		addr, err := netip.ParseAddr(id)
		if err != nil || (addr.Is4() != (tg.ipType != types.TargetGroupIpAddressTypeEnumIpv6)) {
			return invalid
		}
		if zone != "" && zone != "all" && !strings.HasPrefix(zone, r.scope.Region) {
			return validation("Availability zone '%s' must be 'all' or a zone of region '%s'", zone, r.scope.Region)
		}
	case types.TargetTypeEnumLambda:
		if !lambdaARN.MatchString(id) {
			return invalid
		}
	case types.TargetTypeEnumAlb:
		lb := r.lbs[id]
		if lb == nil || lb.typ != types.LoadBalancerTypeEnumApplication {
			return invalid
		}
	}
	return nil
}
