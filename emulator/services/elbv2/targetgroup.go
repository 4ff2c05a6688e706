package elbv2

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// targetGroup is one target group with its registered targets by targetKey.
type targetGroup struct {
	arn, name, vpc, protocolVersion string
	protocol                        types.ProtocolEnum
	port                            int32
	targetType                      types.TargetTypeEnum
	ipType                          types.TargetGroupIpAddressTypeEnum
	hc                              healthCheck
	attrs                           map[string]string
	targets                         map[string]*target
}

// healthCheck is a target group's health check settings.
type healthCheck struct {
	enabled                               bool
	protocol                              types.ProtocolEnum
	port, path, httpCode, grpcCode        string
	interval, timeout, healthy, unhealthy int32
}

// healthCheckChange is what CreateTargetGroup and ModifyTargetGroup say of the health check.
type healthCheckChange struct {
	enabled                               *bool
	protocol                              types.ProtocolEnum
	port, path                            *string
	interval, timeout, healthy, unhealthy *int32
	matcher                               *types.Matcher
}

func (tg *targetGroup) isHTTP() bool {
	return tg.protocol == types.ProtocolEnumHttp || tg.protocol == types.ProtocolEnumHttps
}

func (tg *targetGroup) isLambda() bool { return tg.targetType == types.TargetTypeEnumLambda }

// defaultHealthCheck returns the health check AWS gives a new target group of tg's protocol
// and target type (CreateTargetGroup in the API reference).
func defaultHealthCheck(tg *targetGroup) healthCheck {
	hc := healthCheck{enabled: true, protocol: types.ProtocolEnumTcp, port: "traffic-port", interval: 30, timeout: 10, healthy: 5, unhealthy: 2}
	switch {
	case tg.isLambda():
		return healthCheck{path: "/", httpCode: "200", interval: 35, timeout: 30, healthy: 5, unhealthy: 5}
	case tg.isHTTP():
		hc.protocol, hc.path, hc.httpCode = tg.protocol, "/", "200"
		if tg.protocol == types.ProtocolEnumHttp {
			hc.timeout = 6
		}
		if tg.protocolVersion == "GRPC" {
			hc.path, hc.httpCode, hc.grpcCode = "/AWS.ALB/healthcheck", "", "12"
		}
	case tg.protocol == types.ProtocolEnumGeneve:
		hc.interval, hc.timeout = 10, 5
	}
	return hc
}

// httpCodes matches a matcher's HTTP codes: codes and ranges separated by commas.
var httpCodes = regexp.MustCompile(`^\d{3}(-\d{3})?(,\d{3}(-\d{3})?)*$`)

// apply returns tg's health check with the change, checked against AWS's ranges.
func (c healthCheckChange) apply(tg *targetGroup) (healthCheck, error) {
	hc := tg.hc
	if c.enabled != nil {
		hc.enabled = *c.enabled
	}
	if c.protocol != "" {
		p, err := oneOf("healthCheckProtocol", c.protocol, "", types.ProtocolEnumHttp, types.ProtocolEnumHttps, types.ProtocolEnumTcp)
		if err != nil {
			return hc, err
		}
		if p == types.ProtocolEnumTcp && (tg.isHTTP() || tg.isLambda()) {
			return hc, invalidConfig("Health check protocol '%s' is not supported for target groups with the '%s' protocol", p, tg.protocol)
		}
		if p != hc.protocol && p == types.ProtocolEnumTcp {
			hc.path, hc.httpCode = "", ""
		} else if hc.path == "" && p != types.ProtocolEnumTcp {
			hc.path, hc.httpCode = "/", "200-399"
		}
		hc.protocol = p
	}
	for _, r := range []struct {
		param  string
		v      *int32
		lo, hi int32
		field  *int32
	}{{"healthCheckIntervalSeconds", c.interval, 5, 300, &hc.interval}, {"healthCheckTimeoutSeconds", c.timeout, 2, 120, &hc.timeout},
		{"healthyThresholdCount", c.healthy, 2, 10, &hc.healthy}, {"unhealthyThresholdCount", c.unhealthy, 2, 10, &hc.unhealthy}} {
		if err := inRange(r.param, r.v, r.lo, r.hi); err != nil {
			return hc, err
		}
		if r.v != nil {
			*r.field = *r.v
		}
	}
	if hc.timeout >= hc.interval && !tg.isLambda() {
		return hc, invalidConfig("Health check timeout '%d' must be smaller than the interval '%d'", hc.timeout, hc.interval)
	}
	if c.port != nil {
		n, err := strconv.Atoi(*c.port)
		if *c.port != "traffic-port" && (err != nil || n < 1 || n > 65535) {
			return hc, validation("Health check port '%s' must be 'traffic-port' or a port between 1 and 65535", *c.port)
		}
		hc.port = *c.port
	}
	if c.path != nil {
		if hc.protocol == types.ProtocolEnumTcp {
			return hc, invalidConfig("A health check path cannot be specified with the TCP health check protocol")
		}
		if !strings.HasPrefix(*c.path, "/") || len(*c.path) > 1024 {
			return hc, validation("Health check path '%s' must begin with '/' and be at most 1024 characters", *c.path)
		}
		hc.path = *c.path
	}
	if c.matcher != nil {
		return hc, c.applyMatcher(tg, &hc)
	}
	return hc, nil
}

func (c healthCheckChange) applyMatcher(tg *targetGroup, hc *healthCheck) error {
	httpCode, grpcCode := aws.ToString(c.matcher.HttpCode), aws.ToString(c.matcher.GrpcCode)
	switch {
	case hc.protocol == types.ProtocolEnumTcp:
		return invalidConfig("A health check matcher cannot be specified with the TCP health check protocol")
	case grpcCode != "" && tg.protocolVersion != "GRPC":
		return invalidConfig("A gRPC code matcher needs the GRPC protocol version")
	case grpcCode != "":
		hc.grpcCode, hc.httpCode = grpcCode, ""
	case !httpCodes.MatchString(httpCode):
		return validation("Health check matcher HTTP code '%s' must be codes or ranges such as '200', '200,202' or '200-299'", httpCode)
	default:
		hi := 599
		if tg.isHTTP() {
			hi = 499
		}
		for _, code := range strings.FieldsFunc(httpCode, func(r rune) bool { return r == ',' || r == '-' }) {
			if n, _ := strconv.Atoi(code); n < 200 || n > hi {
				return validation("Health check matcher HTTP code '%s' must be between 200 and %d", code, hi)
			}
		}
		hc.httpCode, hc.grpcCode = httpCode, ""
	}
	return nil
}

func (tg *targetGroup) describe(r *region) types.TargetGroup {
	d := types.TargetGroup{TargetGroupArn: aws.String(tg.arn), TargetGroupName: aws.String(tg.name), TargetType: tg.targetType,
		HealthCheckEnabled: aws.Bool(tg.hc.enabled), HealthCheckIntervalSeconds: aws.Int32(tg.hc.interval),
		HealthCheckTimeoutSeconds: aws.Int32(tg.hc.timeout), HealthyThresholdCount: aws.Int32(tg.hc.healthy),
		UnhealthyThresholdCount: aws.Int32(tg.hc.unhealthy), HealthCheckPath: optional(tg.hc.path), LoadBalancerArns: r.usersOf(tg.arn)}
	if tg.hc.httpCode != "" || tg.hc.grpcCode != "" {
		d.Matcher = &types.Matcher{HttpCode: optional(tg.hc.httpCode), GrpcCode: optional(tg.hc.grpcCode)}
	}
	if !tg.isLambda() {
		d.Protocol, d.Port, d.VpcId, d.IpAddressType = tg.protocol, aws.Int32(tg.port), aws.String(tg.vpc), tg.ipType
		d.HealthCheckProtocol, d.HealthCheckPort, d.ProtocolVersion = tg.hc.protocol, aws.String(tg.hc.port), optional(tg.protocolVersion)
	}
	return d
}

// usersOf returns the load balancers whose listeners or rules forward to a target group.
func (r *region) usersOf(tgARN string) []string {
	out := []string{}
	for _, l := range r.listeners {
		if l.forwardsTo(tgARN) && !slices.Contains(out, l.lb) {
			out = append(out, l.lb)
		}
	}
	for _, ru := range r.rules {
		if lb := r.listeners[ru.listener].lb; slices.Contains(forwardTargets(ru.actions), tgARN) && !slices.Contains(out, lb) {
			out = append(out, lb)
		}
	}
	slices.Sort(out)
	return out
}

// sameSettings reports whether CreateTargetGroup with other's settings answers with tg.
func (tg *targetGroup) sameSettings(other *targetGroup) bool {
	return tg.protocol == other.protocol && tg.port == other.port && tg.vpc == other.vpc && tg.targetType == other.targetType &&
		tg.protocolVersion == other.protocolVersion && tg.ipType == other.ipType && tg.hc == other.hc
}

// newTargetGroup checks what CreateTargetGroup says of a target group other than its health
// check and tags.
func (b *Backend) newTargetGroup(call *core.Call, in *elb.CreateTargetGroupInput) (*targetGroup, error) {
	name, err := checkName("Target group", in.Name)
	if err != nil {
		return nil, err
	}
	tg := &targetGroup{name: name, attrs: map[string]string{}, targets: map[string]*target{}}
	if tg.targetType, err = oneOf("targetType", in.TargetType, types.TargetTypeEnumInstance, types.TargetTypeEnumInstance,
		types.TargetTypeEnumIp, types.TargetTypeEnumLambda, types.TargetTypeEnumAlb); err != nil {
		return nil, err
	}
	if tg.isLambda() {
		if in.Protocol != "" || in.Port != nil || in.VpcId != nil || in.ProtocolVersion != nil {
			return nil, validation("Protocol, port, protocol version and VPC ID cannot be specified for target groups with target type 'lambda'")
		}
		return tg, nil
	}
	if in.Protocol == "" {
		return nil, validation("A protocol must be specified")
	}
	if tg.protocol, err = oneOf("protocol", in.Protocol, "", types.ProtocolEnumHttp, types.ProtocolEnumHttps, types.ProtocolEnumTcp,
		types.ProtocolEnumTls, types.ProtocolEnumUdp, types.ProtocolEnumTcpUdp, types.ProtocolEnumGeneve); err != nil {
		return nil, err
	}
	if err := checkPort(in.Port); err != nil {
		return nil, err
	}
	tg.port, tg.vpc = *in.Port, aws.ToString(in.VpcId)
	switch {
	case tg.vpc == "":
		return nil, validation("A VPC ID must be specified")
	case !b.network.VpcExists(call.Scope(), tg.vpc):
		return nil, validation("The VPC ID '%s' is not found", tg.vpc)
	case tg.targetType == types.TargetTypeEnumAlb && tg.protocol != types.ProtocolEnumTcp:
		return nil, invalidConfig("Target groups with target type 'alb' must use the TCP protocol")
	case in.ProtocolVersion != nil && !tg.isHTTP():
		return nil, invalidConfig("A protocol version can only be specified for HTTP and HTTPS target groups")
	case tg.isHTTP():
		if tg.protocolVersion, err = oneOf("protocolVersion", aws.ToString(in.ProtocolVersion), "HTTP1", "GRPC", "HTTP1", "HTTP2"); err != nil {
			return nil, err
		}
	}
	if tg.ipType, err = oneOf("ipAddressType", in.IpAddressType, types.TargetGroupIpAddressTypeEnumIpv4,
		types.TargetGroupIpAddressTypeEnumIpv4, types.TargetGroupIpAddressTypeEnumIpv6); err != nil {
		return nil, err
	}
	return tg, nil
}

func (b *Backend) createTargetGroup(call *core.Call, in *elb.CreateTargetGroupInput) (*elb.CreateTargetGroupOutput, error) {
	tg, err := b.newTargetGroup(call, in)
	if err != nil {
		return nil, err
	}
	tg.hc = defaultHealthCheck(tg)
	if tg.hc, err = (healthCheckChange{in.HealthCheckEnabled, in.HealthCheckProtocol, in.HealthCheckPort, in.HealthCheckPath,
		in.HealthCheckIntervalSeconds, in.HealthCheckTimeoutSeconds, in.HealthyThresholdCount, in.UnhealthyThresholdCount, in.Matcher}).apply(tg); err != nil {
		return nil, err
	}
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*elb.CreateTargetGroupOutput, error) {
		for _, other := range r.groups {
			if other.name == tg.name {
				if !other.sameSettings(tg) {
					return nil, core.Errorf("DuplicateTargetGroupName", "A target group with the same name '%s' exists, but with different settings", tg.name)
				}
				tg = other
			}
		}
		if tg.arn == "" {
			tg.arn = r.scope.ARN("elasticloadbalancing", "targetgroup/"+tg.name+"/"+newID())
			if err := r.tags.Merge(tags, tg.arn); err != nil {
				return nil, err
			}
			r.groups[tg.arn] = tg
		}
		return &elb.CreateTargetGroupOutput{TargetGroups: []types.TargetGroup{tg.describe(r)}}, nil
	})
}

// targetGroup returns the target group an ARN names.
func (r *region) targetGroup(arn *string) (*targetGroup, error) {
	if tg := r.groups[aws.ToString(arn)]; tg != nil {
		return tg, nil
	}
	return nil, core.Errorf("TargetGroupNotFound", "Target groups '%s' not found", aws.ToString(arn))
}

func (b *Backend) describeTargetGroups(call *core.Call, in *elb.DescribeTargetGroupsInput) (*elb.DescribeTargetGroupsOutput, error) {
	given := 0
	for _, set := range []bool{in.LoadBalancerArn != nil, len(in.TargetGroupArns) > 0, len(in.Names) > 0} {
		if set {
			given++
		}
	}
	if given > 1 {
		return nil, validation("Only one of load balancer ARN, target group ARNs or names can be specified")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeTargetGroupsOutput, error) {
		arns, absent := core.Select(r.groups, in.TargetGroupArns)
		switch {
		case len(in.Names) > 0:
			arns, absent = core.SelectBy(r.groups, in.Names, func(tg *targetGroup) string { return tg.name })
		case in.LoadBalancerArn != nil:
			if _, err := r.lb(in.LoadBalancerArn); err != nil {
				return nil, err
			}
			arns = slices.DeleteFunc(arns, func(arn string) bool { return !slices.Contains(r.usersOf(arn), *in.LoadBalancerArn) })
		}
		if len(absent) > 0 {
			return nil, core.Errorf("TargetGroupNotFound", "Target groups '[%s]' not found", strings.Join(absent, ", "))
		}
		groups, next, err := page(arns, in.Marker, in.PageSize, func(arn string) types.TargetGroup { return r.groups[arn].describe(r) })
		return &elb.DescribeTargetGroupsOutput{TargetGroups: groups, NextMarker: next}, err
	})
}

func (b *Backend) modifyTargetGroup(call *core.Call, in *elb.ModifyTargetGroupInput) (*elb.ModifyTargetGroupOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.ModifyTargetGroupOutput, error) {
		tg, err := r.targetGroup(in.TargetGroupArn)
		if err != nil {
			return nil, err
		}
		if tg.hc, err = (healthCheckChange{in.HealthCheckEnabled, in.HealthCheckProtocol, in.HealthCheckPort, in.HealthCheckPath,
			in.HealthCheckIntervalSeconds, in.HealthCheckTimeoutSeconds, in.HealthyThresholdCount, in.UnhealthyThresholdCount, in.Matcher}).apply(tg); err != nil {
			return nil, err
		}
		return &elb.ModifyTargetGroupOutput{TargetGroups: []types.TargetGroup{tg.describe(r)}}, nil
	})
}

// deleteTargetGroup refuses while a listener forwards to the group. A group that does not
// exist is already deleted: the call succeeds, as the API reference lists no not-found error.
func (b *Backend) deleteTargetGroup(call *core.Call, in *elb.DeleteTargetGroupInput) (*elb.DeleteTargetGroupOutput, error) {
	arn := aws.ToString(in.TargetGroupArn)
	if !strings.HasPrefix(arn, "arn:") {
		return nil, validation("'%s' is not a valid target group ARN", arn)
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DeleteTargetGroupOutput, error) {
		if len(r.usersOf(arn)) > 0 {
			return nil, core.Errorf("ResourceInUse", "Target group '%s' is currently in use by a listener or a rule", arn)
		}
		delete(r.groups, arn)
		r.tags.Delete(arn)
		return &elb.DeleteTargetGroupOutput{}, nil
	})
}
