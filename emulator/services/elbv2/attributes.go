package elbv2

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// attribute is one documented attribute of a load balancer or target group (T): which owners
// have it (all when applies is nil), its default (def, or defOf when it depends on the owner),
// and the check of a new value (check, or checkOf when it depends on the owner).
type attribute[T any] struct {
	applies func(T) bool
	def     string
	defOf   func(T) string
	check   func(string) error
	checkOf func(T, string) error
}

func (a attribute[T]) has(owner T) bool { return a.applies == nil || a.applies(owner) }

func (a attribute[T]) defaultFor(owner T) string {
	if a.defOf != nil {
		return a.defOf(owner)
	}
	return a.def
}

func (a attribute[T]) checkFor(owner T, v string) error {
	if a.checkOf != nil {
		return a.checkOf(owner, v)
	}
	return a.check(v)
}

func isBool(v string) error { return enum(v, "true", "false") }

func anyText(string) error { return nil }

func enum(v string, allowed ...string) error {
	if !slices.Contains(allowed, v) {
		return fmt.Errorf("must be one of %v", allowed)
	}
	return nil
}

func between(lo, hi int) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("must be an integer between %d and %d", lo, hi)
		}
		return nil
	}
}

func oneOfValues(allowed ...string) func(string) error {
	return func(v string) error { return enum(v, allowed...) }
}

// attributeTable is the attributes of one kind of owner, and how errors name the owner.
type attributeTable[T any] struct {
	noun  string         // "Load balancer", "Target group"
	kind  func(T) string // how errors name an owner's type
	attrs map[string]attribute[T]
	// consistent, when set, checks the attributes an owner would have after a change together.
	consistent func(get func(key string) string) error
}

// describe returns the value of every attribute owner has, set or default, sorted by key.
func (t attributeTable[T]) describe(owner T, set map[string]string) (keys, values []string) {
	for _, k := range core.SortedKeys(t.attrs) {
		a := t.attrs[k]
		if !a.has(owner) {
			continue
		}
		v, ok := set[k]
		if !ok {
			v = a.defaultFor(owner)
		}
		keys, values = append(keys, k), append(values, v)
	}
	return keys, values
}

// modify checks every change first and then applies them all: a key AWS does not know is a
// ValidationError, a key of another type of owner or a bad value InvalidConfigurationRequest.
func (t attributeTable[T]) modify(owner T, set map[string]string, keys, values []string) error {
	if len(keys) == 0 {
		return validation("At least one attribute must be specified")
	}
	if len(keys) > 20 {
		return validation("1 validation error detected: Value at 'attributes' failed to satisfy constraint: Member must have length less than or equal to 20")
	}
	for i, k := range keys {
		a, ok := t.attrs[k]
		switch {
		case !ok:
			return validation("%s attribute key '%s' is not recognized", t.noun, k)
		case !a.has(owner):
			return invalidConfig("%s attribute key '%s' is not supported on %s", t.noun, k, t.kind(owner))
		}
		if err := a.checkFor(owner, values[i]); err != nil {
			return invalidConfig("%s attribute '%s' value '%s' is not valid: %v", t.noun, k, values[i], err)
		}
	}
	merged := maps.Clone(set)
	for i, k := range keys {
		merged[k] = values[i]
	}
	if t.consistent != nil {
		if err := t.consistent(func(k string) string { return t.value(owner, merged, k) }); err != nil {
			return err
		}
	}
	maps.Copy(set, merged)
	return nil
}

// value returns an attribute's value, set or default.
func (t attributeTable[T]) value(owner T, set map[string]string, key string) string {
	if v, ok := set[key]; ok {
		return v
	}
	return t.attrs[key].defaultFor(owner)
}

const deletionProtection = "deletion_protection.enabled"

// attr returns the value of one of the load balancer's attributes.
func (lb *loadBalancer) attr(key string) string {
	return lbAttributes.value(lb, lb.attrs, key)
}

func isALB(lb *loadBalancer) bool { return lb.typ == types.LoadBalancerTypeEnumApplication }
func isNLB(lb *loadBalancer) bool { return lb.typ == types.LoadBalancerTypeEnumNetwork }

// lbAttributes are the attributes AWS documents for Application and Network Load Balancers
// (LoadBalancerAttribute in the API reference), with their defaults.
var lbAttributes = attributeTable[*loadBalancer]{
	noun: "Load balancer",
	kind: func(lb *loadBalancer) string { return "load balancers of type '" + string(lb.typ) + "'" },
	attrs: map[string]attribute[*loadBalancer]{
		deletionProtection: {def: "false", check: isBool},
		"load_balancing.cross_zone.enabled": {defOf: func(lb *loadBalancer) string { return strconv.FormatBool(isALB(lb)) },
			checkOf: func(lb *loadBalancer, v string) error {
				if isALB(lb) && v != "true" {
					return fmt.Errorf("cross-zone load balancing is always on for Application Load Balancers")
				}
				return enum(v, "true", "false")
			}},
		"access_logs.s3.enabled": {def: "false", check: isBool},
		"access_logs.s3.bucket":  {def: "", check: anyText},
		"access_logs.s3.prefix":  {def: "", check: anyText},
		"ipv6.deny_all_igw_traffic": {defOf: func(lb *loadBalancer) string {
			return strconv.FormatBool(lb.scheme == types.LoadBalancerSchemeEnumInternal)
		}, check: isBool},
		"zonal_shift.config.enabled":                               {def: "false", check: isBool},
		"idle_timeout.timeout_seconds":                             {applies: isALB, def: "60", check: between(1, 4000)},
		"client_keep_alive.seconds":                                {applies: isALB, def: "3600", check: between(60, 604800)},
		"connection_logs.s3.enabled":                               {applies: isALB, def: "false", check: isBool},
		"connection_logs.s3.bucket":                                {applies: isALB, def: "", check: anyText},
		"connection_logs.s3.prefix":                                {applies: isALB, def: "", check: anyText},
		"routing.http.desync_mitigation_mode":                      {applies: isALB, def: "defensive", check: oneOfValues("monitor", "defensive", "strictest")},
		"routing.http.drop_invalid_header_fields.enabled":          {applies: isALB, def: "false", check: isBool},
		"routing.http.preserve_host_header.enabled":                {applies: isALB, def: "false", check: isBool},
		"routing.http.x_amzn_tls_version_and_cipher_suite.enabled": {applies: isALB, def: "false", check: isBool},
		"routing.http.xff_client_port.enabled":                     {applies: isALB, def: "false", check: isBool},
		"routing.http.xff_header_processing.mode":                  {applies: isALB, def: "append", check: oneOfValues("append", "preserve", "remove")},
		"routing.http2.enabled":                                    {applies: isALB, def: "true", check: isBool},
		"waf.fail_open.enabled":                                    {applies: isALB, def: "false", check: isBool},
		"dns_record.client_routing_policy": {applies: isNLB, def: "any_availability_zone",
			check: oneOfValues("any_availability_zone", "availability_zone_affinity", "partial_availability_zone_affinity")},
	},
	consistent: func(get func(string) string) error {
		for _, logs := range []string{"access_logs", "connection_logs"} {
			if get(logs+".s3.enabled") == "true" && get(logs+".s3.bucket") == "" {
				return invalidConfig("The value of '%s.s3.bucket' cannot be empty when '%s.s3.enabled' is true", logs, logs)
			}
		}
		return nil
	},
}

// attributes runs a Describe*Attributes (no changes) or Modify*Attributes operation of the table t
// on the owner that find returns, holding the backend's mutex, and answers with every attribute of
// the owner as the SDK's type A, as AWS does.
func attributes[T, A any](b *Backend, call *core.Call, t attributeTable[T], find func(r *region) (T, map[string]string, error),
	changes []A, kv func(A) (*string, *string), newAttr func(k, v *string) A) ([]A, error) {
	return core.Locked(b.state, call, func(r *region) ([]A, error) {
		owner, set, err := find(r)
		if err != nil {
			return nil, err
		}
		if changes != nil {
			var keys, values []string
			for _, c := range changes {
				k, v := kv(c)
				keys, values = append(keys, aws.ToString(k)), append(values, aws.ToString(v))
			}
			if err := t.modify(owner, set, keys, values); err != nil {
				return nil, err
			}
		}
		keys, values := t.describe(owner, set)
		out := make([]A, len(keys))
		for i := range keys {
			out[i] = newAttr(aws.String(keys[i]), aws.String(values[i]))
		}
		return out, nil
	})
}

// lbOwner finds the load balancer of an attributes operation.
func lbOwner(arn *string) func(*region) (*loadBalancer, map[string]string, error) {
	return func(r *region) (*loadBalancer, map[string]string, error) {
		lb, err := r.lb(arn)
		if err != nil {
			return nil, nil, err
		}
		return lb, lb.attrs, nil
	}
}

func lbAttributePair(a types.LoadBalancerAttribute) (*string, *string) { return a.Key, a.Value }

func newLBAttribute(k, v *string) types.LoadBalancerAttribute {
	return types.LoadBalancerAttribute{Key: k, Value: v}
}

func (b *Backend) describeLoadBalancerAttributes(call *core.Call, in *elb.DescribeLoadBalancerAttributesInput) (*elb.DescribeLoadBalancerAttributesOutput, error) {
	attrs, err := attributes(b, call, lbAttributes, lbOwner(in.LoadBalancerArn), nil, lbAttributePair, newLBAttribute)
	return &elb.DescribeLoadBalancerAttributesOutput{Attributes: attrs}, err
}

func (b *Backend) modifyLoadBalancerAttributes(call *core.Call, in *elb.ModifyLoadBalancerAttributesInput) (*elb.ModifyLoadBalancerAttributesOutput, error) {
	attrs, err := attributes(b, call, lbAttributes, lbOwner(in.LoadBalancerArn), nonNil(in.Attributes), lbAttributePair, newLBAttribute)
	return &elb.ModifyLoadBalancerAttributesOutput{Attributes: attrs}, err
}

// nonNil makes a Modify request without attributes a change of none, which modify refuses.
func nonNil[A any](changes []A) []A {
	if changes == nil {
		return []A{}
	}
	return changes
}

func notLambda(tg *targetGroup) bool   { return !tg.isLambda() }
func httpTargets(tg *targetGroup) bool { return tg.isHTTP() }
func tcpTargets(tg *targetGroup) bool  { return !tg.isLambda() && !tg.isHTTP() }
func lambdaTargets(tg *targetGroup) bool {
	return tg.isLambda()
}

// preserveClientIP is on by default except for ip targets of TCP and TLS target groups.
func preserveClientIP(tg *targetGroup) string {
	ipStream := tg.targetType == types.TargetTypeEnumIp && (tg.protocol == types.ProtocolEnumTcp || tg.protocol == types.ProtocolEnumTls)
	return strconv.FormatBool(!ipStream)
}

// stickinessType is lb_cookie for Application Load Balancer target groups, source_ip for the
// others.
func stickinessType(tg *targetGroup) string {
	if tg.isHTTP() {
		return "lb_cookie"
	}
	return "source_ip"
}

func minimumHealthy(v string) error {
	if v == "off" {
		return nil
	}
	return between(1, 100)(v)
}

// tgAttributes are the attributes AWS documents for target groups (TargetGroupAttribute in the
// API reference), with their defaults.
var tgAttributes = attributeTable[*targetGroup]{
	noun: "Target group",
	kind: func(tg *targetGroup) string {
		if tg.isLambda() {
			return "target groups of target type 'lambda'"
		}
		return "target groups with the '" + string(tg.protocol) + "' protocol"
	},
	attrs: map[string]attribute[*targetGroup]{
		"deregistration_delay.timeout_seconds": {applies: notLambda, def: "300", check: between(0, 3600)},
		"stickiness.enabled":                   {applies: notLambda, def: "false", check: isBool},
		"stickiness.type": {applies: notLambda, defOf: stickinessType, checkOf: func(tg *targetGroup, v string) error {
			if tg.isHTTP() {
				return enum(v, "lb_cookie", "app_cookie")
			}
			return enum(v, "source_ip", "source_ip_dest_ip", "source_ip_dest_ip_proto")
		}},
		"load_balancing.cross_zone.enabled": {applies: notLambda, def: "use_load_balancer_configuration",
			check: oneOfValues("true", "false", "use_load_balancer_configuration")},
		"target_group_health.dns_failover.minimum_healthy_targets.count":                 {applies: notLambda, def: "1", check: minimumHealthy},
		"target_group_health.dns_failover.minimum_healthy_targets.percentage":            {applies: notLambda, def: "off", check: minimumHealthy},
		"target_group_health.unhealthy_state_routing.minimum_healthy_targets.count":      {applies: notLambda, def: "1", check: between(1, 1000)},
		"target_group_health.unhealthy_state_routing.minimum_healthy_targets.percentage": {applies: notLambda, def: "off", check: minimumHealthy},
		"load_balancing.algorithm.type": {applies: httpTargets, def: "round_robin",
			check: oneOfValues("round_robin", "least_outstanding_requests", "weighted_random")},
		"load_balancing.algorithm.anomaly_mitigation": {applies: httpTargets, def: "off", check: oneOfValues("on", "off")},
		"slow_start.duration_seconds": {applies: httpTargets, def: "0", check: func(v string) error {
			if v == "0" {
				return nil
			}
			return between(30, 900)(v)
		}},
		"stickiness.app_cookie.cookie_name":                            {applies: httpTargets, def: "", check: anyText},
		"stickiness.app_cookie.duration_seconds":                       {applies: httpTargets, def: "86400", check: between(1, 604800)},
		"stickiness.lb_cookie.duration_seconds":                        {applies: httpTargets, def: "86400", check: between(1, 604800)},
		"lambda.multi_value_headers.enabled":                           {applies: lambdaTargets, def: "false", check: isBool},
		"deregistration_delay.connection_termination.enabled":          {applies: tcpTargets, def: "false", check: isBool},
		"preserve_client_ip.enabled":                                   {applies: tcpTargets, defOf: preserveClientIP, check: isBool},
		"proxy_protocol_v2.enabled":                                    {applies: tcpTargets, def: "false", check: isBool},
		"target_health_state.unhealthy.connection_termination.enabled": {applies: tcpTargets, def: "true", check: isBool},
		"target_health_state.unhealthy.draining_interval_seconds":      {applies: tcpTargets, def: "0", check: between(0, 360000)},
	},
	consistent: func(get func(string) string) error {
		if get("load_balancing.algorithm.anomaly_mitigation") == "on" && get("load_balancing.algorithm.type") != "weighted_random" {
			return invalidConfig("Anomaly mitigation is only supported with the 'weighted_random' load balancing algorithm")
		}
		if get("stickiness.enabled") == "true" && get("stickiness.type") == "app_cookie" && get("stickiness.app_cookie.cookie_name") == "" {
			return invalidConfig("An application cookie name must be specified for 'app_cookie' stickiness")
		}
		return nil
	},
}

// tgOwner finds the target group of an attributes operation.
func tgOwner(arn *string) func(*region) (*targetGroup, map[string]string, error) {
	return func(r *region) (*targetGroup, map[string]string, error) {
		tg, err := r.targetGroup(arn)
		if err != nil {
			return nil, nil, err
		}
		return tg, tg.attrs, nil
	}
}

func tgAttributePair(a types.TargetGroupAttribute) (*string, *string) { return a.Key, a.Value }

func newTGAttribute(k, v *string) types.TargetGroupAttribute {
	return types.TargetGroupAttribute{Key: k, Value: v}
}

func (b *Backend) describeTargetGroupAttributes(call *core.Call, in *elb.DescribeTargetGroupAttributesInput) (*elb.DescribeTargetGroupAttributesOutput, error) {
	attrs, err := attributes(b, call, tgAttributes, tgOwner(in.TargetGroupArn), nil, tgAttributePair, newTGAttribute)
	return &elb.DescribeTargetGroupAttributesOutput{Attributes: attrs}, err
}

func (b *Backend) modifyTargetGroupAttributes(call *core.Call, in *elb.ModifyTargetGroupAttributesInput) (*elb.ModifyTargetGroupAttributesOutput, error) {
	attrs, err := attributes(b, call, tgAttributes, tgOwner(in.TargetGroupArn), nonNil(in.Attributes), tgAttributePair, newTGAttribute)
	return &elb.ModifyTargetGroupAttributesOutput{Attributes: attrs}, err
}
