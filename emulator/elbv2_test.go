package emulator_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/runner-codes/infra-operator/emulator"
)

// network is a VPC with three subnets in three zones, a security group, and a second VPC.
type network struct {
	vpc, otherVpc, group, otherGroup string
	subnets                          []string
	otherSubnet                      string
}

// elbClient starts an emulator with a frozen clock and returns it with an ELBv2 client and an
// emulated network to put load balancers in.
func elbClient(t *testing.T) (*emulator.Server, *elb.Client, network) {
	t.Helper()
	e, cfg, n := elbWorld(t)
	return e, elb.NewFromConfig(cfg), n
}

// elbWorld starts a frozen emulator with the network of elbClient and returns the SDK
// configuration that reaches it, for tests that also call EC2 or Lambda.
func elbWorld(t *testing.T) (*emulator.Server, aws.Config, network) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	cfg := sdkConfig(t, url, "AKID", 1)
	c := ec2.NewFromConfig(cfg)
	n := network{vpc: createVpc(t, c, "10.0.0.0/16"), otherVpc: createVpc(t, c, "10.1.0.0/16")}
	for _, cidr := range []string{"10.0.1.0/24", "10.0.2.0/24", "10.0.3.0/24"} {
		n.subnets = append(n.subnets, createSubnet(t, c, n.vpc, cidr))
	}
	n.otherSubnet = createSubnet(t, c, n.otherVpc, "10.1.1.0/24")
	n.group, n.otherGroup = createGroup(t, c, n.vpc, "web"), createGroup(t, c, n.otherVpc, "other")
	return e, cfg, n
}

func alb(name string, n network) *elb.CreateLoadBalancerInput {
	return &elb.CreateLoadBalancerInput{Name: aws.String(name), Subnets: n.subnets[:2], SecurityGroups: []string{n.group}}
}

func createLB(t *testing.T, c *elb.Client, in *elb.CreateLoadBalancerInput) types.LoadBalancer {
	t.Helper()
	out, err := c.CreateLoadBalancer(context.Background(), in)
	if err != nil {
		t.Fatalf("create load balancer %s: %v", aws.ToString(in.Name), err)
	}
	return out.LoadBalancers[0]
}

func createTG(t *testing.T, c *elb.Client, in *elb.CreateTargetGroupInput) types.TargetGroup {
	t.Helper()
	out, err := c.CreateTargetGroup(context.Background(), in)
	if err != nil {
		t.Fatalf("create target group %s: %v", aws.ToString(in.Name), err)
	}
	return out.TargetGroups[0]
}

func httpTG(name, vpc string) *elb.CreateTargetGroupInput {
	return &elb.CreateTargetGroupInput{Name: aws.String(name), Protocol: types.ProtocolEnumHttp, Port: aws.Int32(8080), VpcId: aws.String(vpc)}
}

func forward(tg *string) []types.Action {
	return []types.Action{{Type: types.ActionTypeEnumForward, TargetGroupArn: tg}}
}

// lbView is what the tests compare of a load balancer.
func lbView(d types.LoadBalancer) map[string]any {
	var zones []string
	for _, z := range d.AvailabilityZones {
		zones = append(zones, aws.ToString(z.ZoneName)+" "+aws.ToString(z.SubnetId))
	}
	return map[string]any{"name": aws.ToString(d.LoadBalancerName), "type": string(d.Type), "scheme": string(d.Scheme),
		"state": string(d.State.Code), "vpc": aws.ToString(d.VpcId), "ipType": string(d.IpAddressType), "zones": zones,
		"groups": d.SecurityGroups, "zone": aws.ToString(d.CanonicalHostedZoneId)}
}

func TestELBv2LoadBalancerLifecycle(t *testing.T) {
	e, c, n := elbClient(t)
	ctx := context.Background()
	lb := createLB(t, c, alb("web", n))
	want := map[string]any{"name": "web", "type": "application", "scheme": "internet-facing", "state": "provisioning", "vpc": n.vpc,
		"ipType": "ipv4", "zones": []string{"us-east-1a " + n.subnets[0], "us-east-1b " + n.subnets[1]}, "groups": []string{n.group},
		"zone": "Z35SXDOTRQ7X7K"}
	if diff := cmp.Diff(want, lbView(lb)); diff != "" {
		t.Errorf("CreateLoadBalancer reported\n-want +got:\n%s", diff)
	}
	if arn := aws.ToString(lb.LoadBalancerArn); !regexp.MustCompile(`^arn:aws:elasticloadbalancing:us-east-1:000000000000:loadbalancer/app/web/[0-9a-f]{16}$`).MatchString(arn) {
		t.Errorf("LoadBalancerArn %q", arn)
	}
	if dns := aws.ToString(lb.DNSName); !regexp.MustCompile(`^web-\d{10}\.us-east-1\.elb\.amazonaws\.com$`).MatchString(dns) {
		t.Errorf("DNSName %q", dns)
	}
	again := createLB(t, c, alb("web", n))
	if aws.ToString(again.LoadBalancerArn) != aws.ToString(lb.LoadBalancerArn) {
		t.Errorf("creating the same load balancer again gave %s, want the existing %s", aws.ToString(again.LoadBalancerArn), aws.ToString(lb.LoadBalancerArn))
	}
	e.Clock.Advance(3 * time.Second)
	out, err := c.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{LoadBalancerArns: []string{aws.ToString(lb.LoadBalancerArn)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.LoadBalancers[0].State.Code; got != types.LoadBalancerStateEnumActive {
		t.Errorf("state after the transition %q, want active", got)
	}

	internal := alb("private", n)
	internal.Scheme = types.LoadBalancerSchemeEnumInternal
	if dns := aws.ToString(createLB(t, c, internal).DNSName); !strings.HasPrefix(dns, "internal-private-") {
		t.Errorf("internal DNSName %q, want internal-private-...", dns)
	}
	nlb := createLB(t, c, &elb.CreateLoadBalancerInput{Name: aws.String("edge"), Type: types.LoadBalancerTypeEnumNetwork,
		SubnetMappings: []types.SubnetMapping{{SubnetId: aws.String(n.subnets[2]), AllocationId: aws.String("eipalloc-0123456789abcdef0")}}})
	want = map[string]any{"name": "edge", "type": "network", "scheme": "internet-facing", "state": "provisioning", "vpc": n.vpc,
		"ipType": "ipv4", "zones": []string{"us-east-1c " + n.subnets[2]}, "groups": []string(nil), "zone": "Z26RNL4JYFTOTI"}
	if diff := cmp.Diff(want, lbView(nlb)); diff != "" {
		t.Errorf("CreateLoadBalancer (network) reported\n-want +got:\n%s", diff)
	}
	if got := aws.ToString(nlb.AvailabilityZones[0].LoadBalancerAddresses[0].AllocationId); got != "eipalloc-0123456789abcdef0" {
		t.Errorf("NLB address allocation %q", got)
	}
	if dns := aws.ToString(nlb.DNSName); !regexp.MustCompile(`^edge-[0-9a-f]{16}\.elb\.us-east-1\.amazonaws\.com$`).MatchString(dns) {
		t.Errorf("NLB DNSName %q", dns)
	}
	noGroups := alb("defaults", n)
	noGroups.SecurityGroups = nil
	if got := createLB(t, c, noGroups).SecurityGroups; len(got) != 1 || !strings.HasPrefix(got[0], "sg-") || got[0] == n.group {
		t.Errorf("an ALB without security groups got %v, want the VPC's default group", got)
	}
}

func TestELBv2CreateLoadBalancerValidation(t *testing.T) {
	_, c, n := elbClient(t)
	createLB(t, c, alb("taken", n))
	cases := map[string]struct {
		reason string
		args   func(*elb.CreateLoadBalancerInput)
		want   string
	}{
		"DifferentSettings": {"The same name with other settings is a duplicate.", func(in *elb.CreateLoadBalancerInput) {
			in.Name, in.Subnets = aws.String("taken"), n.subnets[1:]
		}, "DuplicateLoadBalancerName"},
		"EmptyName":      {"A name is required.", func(in *elb.CreateLoadBalancerInput) { in.Name = aws.String("") }, "ValidationError"},
		"TooLong":        {"Names are at most 32 characters.", func(in *elb.CreateLoadBalancerInput) { in.Name = aws.String(strings.Repeat("a", 33)) }, "ValidationError"},
		"Underscore":     {"Names are alphanumerics and hyphens.", func(in *elb.CreateLoadBalancerInput) { in.Name = aws.String("my_lb") }, "ValidationError"},
		"LeadingHyphen":  {"Names do not begin with a hyphen.", func(in *elb.CreateLoadBalancerInput) { in.Name = aws.String("-lb") }, "ValidationError"},
		"TrailingHyphen": {"Names do not end with a hyphen.", func(in *elb.CreateLoadBalancerInput) { in.Name = aws.String("lb-") }, "ValidationError"},
		"InternalPrefix": {"Names do not begin with internal-.", func(in *elb.CreateLoadBalancerInput) { in.Name = aws.String("internal-lb") }, "ValidationError"},
		"BadType":        {"Types are application, network or gateway.", func(in *elb.CreateLoadBalancerInput) { in.Type = "classic" }, "ValidationError"},
		"Gateway":        {"Gateway Load Balancers are not emulated.", func(in *elb.CreateLoadBalancerInput) { in.Type = types.LoadBalancerTypeEnumGateway }, "InvalidConfigurationRequest"},
		"BadScheme":      {"Schemes are internet-facing or internal.", func(in *elb.CreateLoadBalancerInput) { in.Scheme = "public" }, "ValidationError"},
		"BadIPType":      {"IP address types are ipv4 or dualstack.", func(in *elb.CreateLoadBalancerInput) { in.IpAddressType = "ipv6" }, "ValidationError"},
		"MissingSubnet":  {"Subnets must exist in EC2.", func(in *elb.CreateLoadBalancerInput) { in.Subnets = []string{n.subnets[0], "subnet-0123456789abcdef0"} }, "SubnetNotFound"},
		"OneZone":        {"An ALB needs two zones.", func(in *elb.CreateLoadBalancerInput) { in.Subnets = n.subnets[:1] }, "ValidationError"},
		"SameZoneTwice":  {"One subnet per zone.", func(in *elb.CreateLoadBalancerInput) { in.Subnets = []string{n.subnets[0], n.subnets[0], n.subnets[1]} }, "InvalidConfigurationRequest"},
		"TwoVpcs":        {"Subnets are in one VPC.", func(in *elb.CreateLoadBalancerInput) { in.Subnets = []string{n.subnets[0], n.otherSubnet} }, "InvalidConfigurationRequest"},
		"BothSubnetKinds": {"Subnets or subnet mappings, not both.", func(in *elb.CreateLoadBalancerInput) {
			in.SubnetMappings = []types.SubnetMapping{{SubnetId: aws.String(n.subnets[2])}}
		}, "ValidationError"},
		"MissingGroup":  {"Security groups must exist.", func(in *elb.CreateLoadBalancerInput) { in.SecurityGroups = []string{"sg-0123456789abcdef0"} }, "InvalidSecurityGroup"},
		"GroupOtherVpc": {"Security groups are in the load balancer's VPC.", func(in *elb.CreateLoadBalancerInput) { in.SecurityGroups = []string{n.otherGroup} }, "InvalidSecurityGroup"},
		"ALBWithEIP": {"Elastic IPs are for NLBs.", func(in *elb.CreateLoadBalancerInput) {
			in.Subnets, in.SubnetMappings = nil, []types.SubnetMapping{{SubnetId: aws.String(n.subnets[0]), AllocationId: aws.String("eipalloc-1")}, {SubnetId: aws.String(n.subnets[1])}}
		}, "InvalidConfigurationRequest"},
		"DuplicateTagKeys": {"A tag key is given once.", func(in *elb.CreateLoadBalancerInput) {
			in.Tags = []types.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("a"), Value: aws.String("2")}}
		}, "DuplicateTagKeys"},
		"Valid": {"A complete request is accepted.", func(in *elb.CreateLoadBalancerInput) { in.IpAddressType = types.IpAddressTypeDualstack }, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := alb("check-"+strings.ToLower(name), n)
			tc.args(in)
			_, err := c.CreateLoadBalancer(context.Background(), in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestELBv2DescribeLoadBalancersBatch(t *testing.T) {
	e, c, n := elbClient(t)
	ctx := context.Background()
	var arns []string
	for _, name := range []string{"a", "b", "c"} {
		arns = append(arns, aws.ToString(createLB(t, c, alb(name, n)).LoadBalancerArn))
	}
	names := func(lbs []types.LoadBalancer) []string {
		var out []string
		for _, lb := range lbs {
			out = append(out, aws.ToString(lb.LoadBalancerName))
		}
		return out
	}
	calls := e.Calls.Total("ELBv2", "DescribeLoadBalancers")
	out, err := c.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{LoadBalancerArns: []string{arns[2], arns[0]}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "c"}, slices.Sorted(slices.Values(names(out.LoadBalancers)))); diff != "" {
		t.Errorf("by ARNs\n-want +got:\n%s", diff)
	}
	if got := e.Calls.Total("ELBv2", "DescribeLoadBalancers") - calls; got != 1 {
		t.Errorf("a batch took %d calls, want 1", got)
	}
	byName, err := c.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{Names: []string{"b", "c"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b", "c"}, slices.Sorted(slices.Values(names(byName.LoadBalancers)))); diff != "" {
		t.Errorf("by names\n-want +got:\n%s", diff)
	}
	var pages []string
	p := elb.NewDescribeLoadBalancersPaginator(c, &elb.DescribeLoadBalancersInput{PageSize: aws.Int32(2)})
	for n := 0; p.HasMorePages(); n++ {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, strings.Join(names(page.LoadBalancers), ","))
	}
	if len(pages) != 2 || len(strings.Split(pages[0], ",")) != 2 {
		t.Errorf("pages of 2: %v", pages)
	}
	cases := map[string]struct {
		reason string
		args   *elb.DescribeLoadBalancersInput
		want   string
	}{
		"MissingARN":  {"A missing ARN fails the batch.", &elb.DescribeLoadBalancersInput{LoadBalancerArns: []string{arns[0], arns[0] + "0"}}, "LoadBalancerNotFound"},
		"MissingName": {"A missing name fails the batch.", &elb.DescribeLoadBalancersInput{Names: []string{"a", "nope"}}, "LoadBalancerNotFound"},
		"Both":        {"ARNs or names, not both.", &elb.DescribeLoadBalancersInput{Names: []string{"a"}, LoadBalancerArns: arns[:1]}, "ValidationError"},
		"PageSize":    {"Pages are 1 to 400.", &elb.DescribeLoadBalancersInput{PageSize: aws.Int32(401)}, "ValidationError"},
		"Marker":      {"Markers come from earlier pages.", &elb.DescribeLoadBalancersInput{Marker: aws.String("x")}, "ValidationError"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.DescribeLoadBalancers(ctx, tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// cmpSDK compares the SDK's action types, ignoring their unexported members.
var cmpSDK = cmpopts.IgnoreUnexported(types.Action{}, types.ForwardActionConfig{}, types.TargetGroupTuple{}, types.TargetGroupStickinessConfig{})

func attrMap[A any](attrs []A, kv func(A) (*string, *string)) map[string]string {
	out := map[string]string{}
	for _, a := range attrs {
		k, v := kv(a)
		out[aws.ToString(k)] = aws.ToString(v)
	}
	return out
}

func lbAttrs(attrs []types.LoadBalancerAttribute) map[string]string {
	return attrMap(attrs, func(a types.LoadBalancerAttribute) (*string, *string) { return a.Key, a.Value })
}

func lbAttr(k, v string) types.LoadBalancerAttribute {
	return types.LoadBalancerAttribute{Key: aws.String(k), Value: aws.String(v)}
}

func TestELBv2LoadBalancerAttributesAndDelete(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	arn := createLB(t, c, alb("web", n)).LoadBalancerArn
	nlbArn := createLB(t, c, &elb.CreateLoadBalancerInput{Name: aws.String("edge"), Type: types.LoadBalancerTypeEnumNetwork, Subnets: n.subnets}).LoadBalancerArn
	out, err := c.DescribeLoadBalancerAttributes(ctx, &elb.DescribeLoadBalancerAttributesInput{LoadBalancerArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	got := lbAttrs(out.Attributes)
	for k, v := range map[string]string{"deletion_protection.enabled": "false", "idle_timeout.timeout_seconds": "60", "routing.http2.enabled": "true",
		"access_logs.s3.enabled": "false", "load_balancing.cross_zone.enabled": "true", "routing.http.desync_mitigation_mode": "defensive"} {
		if got[k] != v {
			t.Errorf("ALB attribute %s = %q, want %q", k, got[k], v)
		}
	}
	nlbOut, err := c.DescribeLoadBalancerAttributes(ctx, &elb.DescribeLoadBalancerAttributesInput{LoadBalancerArn: nlbArn})
	if err != nil {
		t.Fatal(err)
	}
	if got := lbAttrs(nlbOut.Attributes); got["load_balancing.cross_zone.enabled"] != "false" || got["idle_timeout.timeout_seconds"] != "" {
		t.Errorf("NLB attributes %v, want cross-zone off and no idle timeout", got)
	}
	cases := map[string]struct {
		reason string
		arn    *string
		args   []types.LoadBalancerAttribute
		want   string
	}{
		"Unknown":      {"Unknown keys are refused.", arn, []types.LoadBalancerAttribute{lbAttr("idle.timeout", "5")}, "ValidationError"},
		"OtherType":    {"ALB keys do not apply to NLBs.", nlbArn, []types.LoadBalancerAttribute{lbAttr("idle_timeout.timeout_seconds", "30")}, "InvalidConfigurationRequest"},
		"OutOfRange":   {"Idle timeouts are 1 to 4000 seconds.", arn, []types.LoadBalancerAttribute{lbAttr("idle_timeout.timeout_seconds", "0")}, "InvalidConfigurationRequest"},
		"NotBool":      {"Booleans are true or false.", arn, []types.LoadBalancerAttribute{lbAttr("routing.http2.enabled", "yes")}, "InvalidConfigurationRequest"},
		"ALBCrossZone": {"ALBs always balance across zones.", arn, []types.LoadBalancerAttribute{lbAttr("load_balancing.cross_zone.enabled", "false")}, "InvalidConfigurationRequest"},
		"LogsNoBucket": {"Access logs need a bucket.", arn, []types.LoadBalancerAttribute{lbAttr("access_logs.s3.enabled", "true")}, "InvalidConfigurationRequest"},
		"NotFound":     {"The load balancer must exist.", aws.String(aws.ToString(arn) + "0"), []types.LoadBalancerAttribute{lbAttr("routing.http2.enabled", "false")}, "LoadBalancerNotFound"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.ModifyLoadBalancerAttributes(ctx, &elb.ModifyLoadBalancerAttributesInput{LoadBalancerArn: tc.arn, Attributes: tc.args})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	mod, err := c.ModifyLoadBalancerAttributes(ctx, &elb.ModifyLoadBalancerAttributesInput{LoadBalancerArn: arn, Attributes: []types.LoadBalancerAttribute{
		lbAttr("deletion_protection.enabled", "true"), lbAttr("idle_timeout.timeout_seconds", "120"),
		lbAttr("access_logs.s3.enabled", "true"), lbAttr("access_logs.s3.bucket", "logs")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := lbAttrs(mod.Attributes); got["idle_timeout.timeout_seconds"] != "120" || got["deletion_protection.enabled"] != "true" || got["routing.http2.enabled"] != "true" {
		t.Errorf("ModifyLoadBalancerAttributes answered %v, want every attribute with the changes", got)
	}
	if _, err := c.DeleteLoadBalancer(ctx, &elb.DeleteLoadBalancerInput{LoadBalancerArn: arn}); errorCode(err) != "OperationNotPermitted" {
		t.Errorf("deleting a protected load balancer: %v, want OperationNotPermitted", err)
	}
	if _, err := c.ModifyLoadBalancerAttributes(ctx, &elb.ModifyLoadBalancerAttributesInput{LoadBalancerArn: arn,
		Attributes: []types.LoadBalancerAttribute{lbAttr("deletion_protection.enabled", "false")}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // Deleting is idempotent.
		if _, err := c.DeleteLoadBalancer(ctx, &elb.DeleteLoadBalancerInput{LoadBalancerArn: arn}); err != nil {
			t.Fatalf("delete %d: %v", i, err)
		}
	}
	if _, err := c.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{LoadBalancerArns: []string{aws.ToString(arn)}}); errorCode(err) != "LoadBalancerNotFound" {
		t.Errorf("describing a deleted load balancer: %v", err)
	}
}

func TestELBv2SetSubnetsGroupsAndIPType(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	arn := createLB(t, c, alb("web", n)).LoadBalancerArn
	subnets, err := c.SetSubnets(ctx, &elb.SetSubnetsInput{LoadBalancerArn: arn, Subnets: n.subnets})
	if err != nil {
		t.Fatal(err)
	}
	if len(subnets.AvailabilityZones) != 3 {
		t.Errorf("SetSubnets answered %d zones, want 3", len(subnets.AvailabilityZones))
	}
	if _, err := c.SetSubnets(ctx, &elb.SetSubnetsInput{LoadBalancerArn: arn, Subnets: n.subnets[:1]}); errorCode(err) != "ValidationError" {
		t.Errorf("SetSubnets with one zone: %v, want ValidationError", err)
	}
	groups, err := c.SetSecurityGroups(ctx, &elb.SetSecurityGroupsInput{LoadBalancerArn: arn, SecurityGroups: []string{n.group}})
	if err != nil || len(groups.SecurityGroupIds) != 1 {
		t.Fatalf("SetSecurityGroups: %v %v", groups, err)
	}
	if _, err := c.SetSecurityGroups(ctx, &elb.SetSecurityGroupsInput{LoadBalancerArn: arn, SecurityGroups: []string{n.otherGroup}}); errorCode(err) != "InvalidSecurityGroup" {
		t.Errorf("SetSecurityGroups from another VPC: %v, want InvalidSecurityGroup", err)
	}
	nlb := createLB(t, c, &elb.CreateLoadBalancerInput{Name: aws.String("edge"), Type: types.LoadBalancerTypeEnumNetwork, Subnets: n.subnets[:1]})
	if _, err := c.SetSecurityGroups(ctx, &elb.SetSecurityGroupsInput{LoadBalancerArn: nlb.LoadBalancerArn, SecurityGroups: []string{n.group}}); errorCode(err) != "InvalidConfigurationRequest" {
		t.Errorf("SetSecurityGroups on an NLB created without groups: %v, want InvalidConfigurationRequest", err)
	}
	ip, err := c.SetIpAddressType(ctx, &elb.SetIpAddressTypeInput{LoadBalancerArn: arn, IpAddressType: types.IpAddressTypeDualstack})
	if err != nil || ip.IpAddressType != types.IpAddressTypeDualstack {
		t.Fatalf("SetIpAddressType: %v %v", ip, err)
	}
	if _, err := c.SetIpAddressType(ctx, &elb.SetIpAddressTypeInput{LoadBalancerArn: nlb.LoadBalancerArn,
		IpAddressType: types.IpAddressTypeDualstackWithoutPublicIpv4}); errorCode(err) != "InvalidConfigurationRequest" {
		t.Errorf("dualstack-without-public-ipv4 on an NLB: %v, want InvalidConfigurationRequest", err)
	}
}

// tgView is what the tests compare of a target group's settings.
func tgView(d types.TargetGroup) map[string]any {
	v := map[string]any{"protocol": string(d.Protocol), "port": aws.ToInt32(d.Port), "type": string(d.TargetType),
		"hcEnabled": aws.ToBool(d.HealthCheckEnabled), "hcProtocol": string(d.HealthCheckProtocol), "hcPort": aws.ToString(d.HealthCheckPort),
		"hcPath": aws.ToString(d.HealthCheckPath), "interval": aws.ToInt32(d.HealthCheckIntervalSeconds), "timeout": aws.ToInt32(d.HealthCheckTimeoutSeconds),
		"healthy": aws.ToInt32(d.HealthyThresholdCount), "unhealthy": aws.ToInt32(d.UnhealthyThresholdCount), "matcher": "",
		"version": aws.ToString(d.ProtocolVersion), "lbs": d.LoadBalancerArns}
	if d.Matcher != nil {
		v["matcher"] = aws.ToString(d.Matcher.HttpCode) + aws.ToString(d.Matcher.GrpcCode)
	}
	return v
}

func TestELBv2TargetGroups(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		args   *elb.CreateTargetGroupInput
		want   map[string]any
	}{
		"HTTP": {"HTTP groups check HTTP / every 30s with a 6s timeout.", httpTG("http", n.vpc), map[string]any{"protocol": "HTTP", "port": int32(8080),
			"type": "instance", "hcEnabled": true, "hcProtocol": "HTTP", "hcPort": "traffic-port", "hcPath": "/", "interval": int32(30), "timeout": int32(6),
			"healthy": int32(5), "unhealthy": int32(2), "matcher": "200", "version": "HTTP1", "lbs": []string{}}},
		"TCP": {"TCP groups check TCP with a 10s timeout.", &elb.CreateTargetGroupInput{Name: aws.String("tcp"), Protocol: types.ProtocolEnumTcp,
			Port: aws.Int32(443), VpcId: aws.String(n.vpc), TargetType: types.TargetTypeEnumIp}, map[string]any{"protocol": "TCP", "port": int32(443),
			"type": "ip", "hcEnabled": true, "hcProtocol": "TCP", "hcPort": "traffic-port", "hcPath": "", "interval": int32(30), "timeout": int32(10),
			"healthy": int32(5), "unhealthy": int32(2), "matcher": "", "version": "", "lbs": []string{}}},
		"Lambda": {"Lambda groups have no protocol and health checks off.", &elb.CreateTargetGroupInput{Name: aws.String("fn"), TargetType: types.TargetTypeEnumLambda},
			map[string]any{"protocol": "", "port": int32(0), "type": "lambda", "hcEnabled": false, "hcProtocol": "", "hcPort": "", "hcPath": "/",
				"interval": int32(35), "timeout": int32(30), "healthy": int32(5), "unhealthy": int32(5), "matcher": "200", "version": "", "lbs": []string{}}},
		"Custom": {"Given health check settings are kept.", &elb.CreateTargetGroupInput{Name: aws.String("custom"), Protocol: types.ProtocolEnumTcp,
			Port: aws.Int32(80), VpcId: aws.String(n.vpc), HealthCheckProtocol: types.ProtocolEnumHttp, HealthCheckPath: aws.String("/healthz"),
			HealthCheckIntervalSeconds: aws.Int32(10), HealthCheckTimeoutSeconds: aws.Int32(5), HealthyThresholdCount: aws.Int32(3)},
			map[string]any{"protocol": "TCP", "port": int32(80), "type": "instance", "hcEnabled": true, "hcProtocol": "HTTP", "hcPort": "traffic-port",
				"hcPath": "/healthz", "interval": int32(10), "timeout": int32(5), "healthy": int32(3), "unhealthy": int32(2), "matcher": "200-399",
				"version": "", "lbs": []string{}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tgView(createTG(t, c, tc.args))); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	first := createTG(t, c, httpTG("web", n.vpc))
	if again := createTG(t, c, httpTG("web", n.vpc)); aws.ToString(again.TargetGroupArn) != aws.ToString(first.TargetGroupArn) {
		t.Errorf("creating the same target group again gave another ARN")
	}
	if !regexp.MustCompile(`^arn:aws:elasticloadbalancing:us-east-1:000000000000:targetgroup/web/[0-9a-f]{16}$`).MatchString(aws.ToString(first.TargetGroupArn)) {
		t.Errorf("TargetGroupArn %q", aws.ToString(first.TargetGroupArn))
	}
	errs := map[string]struct {
		reason string
		args   func(*elb.CreateTargetGroupInput)
		want   string
	}{
		"Duplicate":       {"The same name with other settings is a duplicate.", func(in *elb.CreateTargetGroupInput) { in.Name, in.Port = aws.String("web"), aws.Int32(81) }, "DuplicateTargetGroupName"},
		"BadName":         {"Names are alphanumerics and hyphens.", func(in *elb.CreateTargetGroupInput) { in.Name = aws.String("tg.1") }, "ValidationError"},
		"NoVpc":           {"Instance groups need a VPC.", func(in *elb.CreateTargetGroupInput) { in.VpcId = nil }, "ValidationError"},
		"UnknownVpc":      {"The VPC must exist.", func(in *elb.CreateTargetGroupInput) { in.VpcId = aws.String("vpc-0123456789abcdef0") }, "ValidationError"},
		"NoPort":          {"Instance groups need a port.", func(in *elb.CreateTargetGroupInput) { in.Port = nil }, "ValidationError"},
		"BadPort":         {"Ports are 1 to 65535.", func(in *elb.CreateTargetGroupInput) { in.Port = aws.Int32(70000) }, "ValidationError"},
		"BadProtocol":     {"Protocols are AWS's enum.", func(in *elb.CreateTargetGroupInput) { in.Protocol = "FTP" }, "ValidationError"},
		"LambdaWithPort":  {"Lambda groups take no port.", func(in *elb.CreateTargetGroupInput) { in.TargetType = types.TargetTypeEnumLambda }, "ValidationError"},
		"ShortInterval":   {"Intervals are 5 to 300 seconds.", func(in *elb.CreateTargetGroupInput) { in.HealthCheckIntervalSeconds = aws.Int32(4) }, "ValidationError"},
		"BadThreshold":    {"Thresholds are 2 to 10.", func(in *elb.CreateTargetGroupInput) { in.UnhealthyThresholdCount = aws.Int32(11) }, "ValidationError"},
		"TimeoutInterval": {"The timeout is less than the interval.", func(in *elb.CreateTargetGroupInput) { in.HealthCheckTimeoutSeconds = aws.Int32(30) }, "InvalidConfigurationRequest"},
		"TCPCheckOnHTTP":  {"HTTP groups cannot check TCP.", func(in *elb.CreateTargetGroupInput) { in.HealthCheckProtocol = types.ProtocolEnumTcp }, "InvalidConfigurationRequest"},
		"BadPath":         {"Paths begin with /.", func(in *elb.CreateTargetGroupInput) { in.HealthCheckPath = aws.String("health") }, "ValidationError"},
		"BadMatcher":      {"ALB matchers are 200 to 499.", func(in *elb.CreateTargetGroupInput) { in.Matcher = &types.Matcher{HttpCode: aws.String("200-599")} }, "ValidationError"},
		"ALBTargetsHTTP":  {"alb targets need TCP.", func(in *elb.CreateTargetGroupInput) { in.TargetType = types.TargetTypeEnumAlb }, "InvalidConfigurationRequest"},
	}
	for name, tc := range errs {
		t.Run(name, func(t *testing.T) {
			in := httpTG("check-"+strings.ToLower(name), n.vpc)
			tc.args(in)
			_, err := c.CreateTargetGroup(ctx, in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	mod, err := c.ModifyTargetGroup(ctx, &elb.ModifyTargetGroupInput{TargetGroupArn: first.TargetGroupArn, HealthCheckPath: aws.String("/ready"),
		HealthCheckIntervalSeconds: aws.Int32(15), Matcher: &types.Matcher{HttpCode: aws.String("200,204")}})
	if err != nil {
		t.Fatal(err)
	}
	if v := tgView(mod.TargetGroups[0]); v["hcPath"] != "/ready" || v["interval"] != int32(15) || v["matcher"] != "200,204" {
		t.Errorf("ModifyTargetGroup answered %v", v)
	}
	if _, err := c.ModifyTargetGroup(ctx, &elb.ModifyTargetGroupInput{TargetGroupArn: first.TargetGroupArn, HealthCheckTimeoutSeconds: aws.Int32(20)}); errorCode(err) != "InvalidConfigurationRequest" {
		t.Errorf("a timeout above the interval: %v, want InvalidConfigurationRequest", err)
	}
	byName, err := c.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{Names: []string{"web", "tcp"}})
	if err != nil || len(byName.TargetGroups) != 2 {
		t.Fatalf("DescribeTargetGroups by names: %v %v", byName, err)
	}
	for name, tc := range map[string]struct {
		args *elb.DescribeTargetGroupsInput
		want string
	}{
		"MissingARN":  {&elb.DescribeTargetGroupsInput{TargetGroupArns: []string{aws.ToString(first.TargetGroupArn) + "0"}}, "TargetGroupNotFound"},
		"MissingName": {&elb.DescribeTargetGroupsInput{Names: []string{"web", "nope"}}, "TargetGroupNotFound"},
		"MissingLB":   {&elb.DescribeTargetGroupsInput{LoadBalancerArn: aws.String("arn:aws:elasticloadbalancing:us-east-1:000000000000:loadbalancer/app/x/0123456789abcdef")}, "LoadBalancerNotFound"},
		"Both":        {&elb.DescribeTargetGroupsInput{Names: []string{"web"}, TargetGroupArns: []string{aws.ToString(first.TargetGroupArn)}}, "ValidationError"},
	} {
		if _, err := c.DescribeTargetGroups(ctx, tc.args); errorCode(err) != tc.want {
			t.Errorf("%s: %v, want %s", name, err, tc.want)
		}
	}
}

func tgAttrs(attrs []types.TargetGroupAttribute) map[string]string {
	return attrMap(attrs, func(a types.TargetGroupAttribute) (*string, *string) { return a.Key, a.Value })
}

func tgAttr(k, v string) types.TargetGroupAttribute {
	return types.TargetGroupAttribute{Key: aws.String(k), Value: aws.String(v)}
}

func TestELBv2TargetGroupAttributes(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	web := createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn
	tcp := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("tcp"), Protocol: types.ProtocolEnumTcp, Port: aws.Int32(80),
		VpcId: aws.String(n.vpc), TargetType: types.TargetTypeEnumIp}).TargetGroupArn
	out, err := c.DescribeTargetGroupAttributes(ctx, &elb.DescribeTargetGroupAttributesInput{TargetGroupArn: web})
	if err != nil {
		t.Fatal(err)
	}
	got := tgAttrs(out.Attributes)
	for k, v := range map[string]string{"deregistration_delay.timeout_seconds": "300", "stickiness.enabled": "false", "stickiness.type": "lb_cookie",
		"load_balancing.algorithm.type": "round_robin", "slow_start.duration_seconds": "0", "stickiness.lb_cookie.duration_seconds": "86400"} {
		if got[k] != v {
			t.Errorf("HTTP target group attribute %s = %q, want %q", k, got[k], v)
		}
	}
	tcpOut, err := c.DescribeTargetGroupAttributes(ctx, &elb.DescribeTargetGroupAttributesInput{TargetGroupArn: tcp})
	if err != nil {
		t.Fatal(err)
	}
	if got := tgAttrs(tcpOut.Attributes); got["preserve_client_ip.enabled"] != "false" || got["stickiness.type"] != "source_ip" || got["proxy_protocol_v2.enabled"] != "false" {
		t.Errorf("TCP ip target group attributes %v", got)
	}
	cases := map[string]struct {
		reason string
		arn    *string
		args   []types.TargetGroupAttribute
		want   string
	}{
		"Unknown":       {"Unknown keys are refused.", web, []types.TargetGroupAttribute{tgAttr("stickiness", "true")}, "ValidationError"},
		"OtherProtocol": {"Proxy protocol is for NLB groups.", web, []types.TargetGroupAttribute{tgAttr("proxy_protocol_v2.enabled", "true")}, "InvalidConfigurationRequest"},
		"BadDelay":      {"Delays are 0 to 3600 seconds.", web, []types.TargetGroupAttribute{tgAttr("deregistration_delay.timeout_seconds", "4000")}, "InvalidConfigurationRequest"},
		"BadStickiness": {"ALB stickiness is lb_cookie or app_cookie.", web, []types.TargetGroupAttribute{tgAttr("stickiness.type", "source_ip")}, "InvalidConfigurationRequest"},
		"NotFound":      {"The group must exist.", aws.String(aws.ToString(web) + "0"), []types.TargetGroupAttribute{tgAttr("stickiness.enabled", "true")}, "TargetGroupNotFound"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.ModifyTargetGroupAttributes(ctx, &elb.ModifyTargetGroupAttributesInput{TargetGroupArn: tc.arn, Attributes: tc.args})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	mod, err := c.ModifyTargetGroupAttributes(ctx, &elb.ModifyTargetGroupAttributesInput{TargetGroupArn: web, Attributes: []types.TargetGroupAttribute{
		tgAttr("stickiness.enabled", "true"), tgAttr("deregistration_delay.timeout_seconds", "30")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := tgAttrs(mod.Attributes); got["stickiness.enabled"] != "true" || got["deregistration_delay.timeout_seconds"] != "30" || got["stickiness.type"] != "lb_cookie" {
		t.Errorf("ModifyTargetGroupAttributes answered %v", got)
	}
}

const testCert = "arn:aws:acm:us-east-1:000000000000:certificate/12345678-1234-1234-1234-123456789012"

func TestELBv2Listeners(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	lb := createLB(t, c, alb("web", n)).LoadBalancerArn
	nlb := createLB(t, c, &elb.CreateLoadBalancerInput{Name: aws.String("edge"), Type: types.LoadBalancerTypeEnumNetwork, Subnets: n.subnets[:1]}).LoadBalancerArn
	web := createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn
	tcp := createTG(t, c, &elb.CreateTargetGroupInput{Name: aws.String("tcp"), Protocol: types.ProtocolEnumTcp, Port: aws.Int32(80), VpcId: aws.String(n.vpc)}).TargetGroupArn
	other := createTG(t, c, httpTG("other", n.otherVpc)).TargetGroupArn
	httpIn := &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), DefaultActions: forward(web)}
	out, err := c.CreateListener(ctx, httpIn)
	if err != nil {
		t.Fatal(err)
	}
	l := out.Listeners[0]
	if !regexp.MustCompile(`^arn:aws:elasticloadbalancing:us-east-1:000000000000:listener/app/web/[0-9a-f]{16}/[0-9a-f]{16}$`).MatchString(aws.ToString(l.ListenerArn)) {
		t.Errorf("ListenerArn %q", aws.ToString(l.ListenerArn))
	}
	wantAction := []types.Action{{Type: types.ActionTypeEnumForward, TargetGroupArn: web, ForwardConfig: &types.ForwardActionConfig{
		TargetGroups: []types.TargetGroupTuple{{TargetGroupArn: web, Weight: aws.Int32(1)}}, TargetGroupStickinessConfig: &types.TargetGroupStickinessConfig{Enabled: aws.Bool(false)}}}}
	if diff := cmp.Diff(wantAction, l.DefaultActions, cmpSDK); diff != "" {
		t.Errorf("forward action\n-want +got:\n%s", diff)
	}
	if again, err := c.CreateListener(ctx, httpIn); err != nil || aws.ToString(again.Listeners[0].ListenerArn) != aws.ToString(l.ListenerArn) {
		t.Errorf("creating the same listener again: %v, want the existing one", err)
	}
	https, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttps, Port: aws.Int32(443),
		Certificates: []types.Certificate{{CertificateArn: aws.String(testCert)}}, DefaultActions: []types.Action{{Type: types.ActionTypeEnumFixedResponse,
			FixedResponseConfig: &types.FixedResponseActionConfig{StatusCode: aws.String("404"), ContentType: aws.String("text/plain")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(https.Listeners[0].SslPolicy); got != "ELBSecurityPolicy-2016-08" {
		t.Errorf("default SSL policy %q", got)
	}
	redirect, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: lb, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(8080),
		DefaultActions: []types.Action{{Type: types.ActionTypeEnumRedirect, RedirectConfig: &types.RedirectActionConfig{StatusCode: types.RedirectActionStatusCodeEnumHttp301, Protocol: aws.String("HTTPS"), Port: aws.String("443")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if rc := redirect.Listeners[0].DefaultActions[0].RedirectConfig; aws.ToString(rc.Host) != "#{host}" || aws.ToString(rc.Path) != "/#{path}" || aws.ToString(rc.Query) != "#{query}" {
		t.Errorf("redirect defaults %+v", rc)
	}
	if _, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: nlb, Protocol: types.ProtocolEnumTcp, Port: aws.Int32(80), DefaultActions: forward(tcp)}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		args   func(*elb.CreateListenerInput)
		want   string
	}{
		"DuplicatePort": {"A port has one listener.", func(in *elb.CreateListenerInput) { in.DefaultActions = forward(tcp) }, "DuplicateListener"},
		"OtherSettings": {"The same port with other settings is a duplicate.", func(in *elb.CreateListenerInput) { in.DefaultActions = redirect.Listeners[0].DefaultActions }, "DuplicateListener"},
		"TCPOnALB":      {"ALB listeners are HTTP or HTTPS.", func(in *elb.CreateListenerInput) { in.Port, in.Protocol = aws.Int32(81), types.ProtocolEnumTcp }, "ValidationError"},
		"HTTPOnNLB":     {"NLB listeners are TCP, TLS, UDP or TCP_UDP.", func(in *elb.CreateListenerInput) { in.LoadBalancerArn, in.Port = nlb, aws.Int32(81) }, "ValidationError"},
		"BadPort":       {"Ports are 1 to 65535.", func(in *elb.CreateListenerInput) { in.Port = aws.Int32(0) }, "ValidationError"},
		"NoCertificate": {"HTTPS needs a certificate.", func(in *elb.CreateListenerInput) { in.Port, in.Protocol = aws.Int32(8443), types.ProtocolEnumHttps }, "ValidationError"},
		"BadCertificate": {"Certificates are ACM or IAM ARNs.", func(in *elb.CreateListenerInput) {
			in.Port, in.Protocol, in.Certificates = aws.Int32(8443), types.ProtocolEnumHttps, []types.Certificate{{CertificateArn: aws.String("cert")}}
		}, "CertificateNotFound"},
		"BadPolicy": {"SSL policies are AWS's.", func(in *elb.CreateListenerInput) {
			in.Port, in.Protocol, in.Certificates, in.SslPolicy = aws.Int32(8443), types.ProtocolEnumHttps, []types.Certificate{{CertificateArn: aws.String(testCert)}}, aws.String("Mine")
		}, "SSLPolicyNotFound"},
		"MissingTG": {"The target group must exist.", func(in *elb.CreateListenerInput) {
			in.Port, in.DefaultActions = aws.Int32(81), forward(aws.String(aws.ToString(web)+"0"))
		}, "TargetGroupNotFound"},
		"TCPTargetOnHTTP": {"ALB listeners forward to HTTP groups.", func(in *elb.CreateListenerInput) { in.Port, in.DefaultActions = aws.Int32(81), forward(tcp) }, "IncompatibleProtocols"},
		"OtherVpc":        {"The group is in the load balancer's VPC.", func(in *elb.CreateListenerInput) { in.Port, in.DefaultActions = aws.Int32(81), forward(other) }, "InvalidConfigurationRequest"},
		"NoActions":       {"A default action is required.", func(in *elb.CreateListenerInput) { in.Port, in.DefaultActions = aws.Int32(81), []types.Action{} }, "ValidationError"},
		"FixedOnNLB": {"NLBs only forward.", func(in *elb.CreateListenerInput) {
			in.LoadBalancerArn, in.Port, in.Protocol, in.DefaultActions = nlb, aws.Int32(81), types.ProtocolEnumTcp, https.Listeners[0].DefaultActions
		}, "InvalidLoadBalancerAction"},
		"BadRedirect": {"Redirects are 301 or 302.", func(in *elb.CreateListenerInput) {
			in.Port, in.DefaultActions = aws.Int32(81), []types.Action{{Type: types.ActionTypeEnumRedirect, RedirectConfig: &types.RedirectActionConfig{StatusCode: "HTTP_307"}}}
		}, "ValidationError"},
		"MissingLB": {"The load balancer must exist.", func(in *elb.CreateListenerInput) { in.LoadBalancerArn = aws.String(aws.ToString(lb) + "0") }, "LoadBalancerNotFound"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := *httpIn
			tc.args(&in)
			_, err := c.CreateListener(ctx, &in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	// A target group serves one load balancer.
	second := createLB(t, c, alb("second", n)).LoadBalancerArn
	if _, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: second, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), DefaultActions: forward(web)}); errorCode(err) != "TargetGroupAssociationLimit" {
		t.Errorf("forwarding to another load balancer's group: %v, want TargetGroupAssociationLimit", err)
	}

	listed, err := c.DescribeListeners(ctx, &elb.DescribeListenersInput{LoadBalancerArn: lb})
	if err != nil || len(listed.Listeners) != 3 {
		t.Fatalf("DescribeListeners: %d listeners, %v; want 3", len(listed.Listeners), err)
	}
	for name, tc := range map[string]struct {
		args *elb.DescribeListenersInput
		want string
	}{
		"MissingListener": {&elb.DescribeListenersInput{ListenerArns: []string{aws.ToString(l.ListenerArn) + "0"}}, "ListenerNotFound"},
		"MissingLB":       {&elb.DescribeListenersInput{LoadBalancerArn: aws.String(aws.ToString(lb) + "0")}, "LoadBalancerNotFound"},
		"Neither":         {&elb.DescribeListenersInput{}, "ValidationError"},
	} {
		if _, err := c.DescribeListeners(ctx, tc.args); errorCode(err) != tc.want {
			t.Errorf("%s: %v, want %s", name, err, tc.want)
		}
	}
	if got, err := c.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{LoadBalancerArn: lb}); err != nil || len(got.TargetGroups) != 1 ||
		!cmp.Equal(got.TargetGroups[0].LoadBalancerArns, []string{aws.ToString(lb)}) {
		t.Errorf("target groups of the load balancer: %v %v", got, err)
	}
	mod, err := c.ModifyListener(ctx, &elb.ModifyListenerInput{ListenerArn: l.ListenerArn, Port: aws.Int32(81)})
	if err != nil || aws.ToInt32(mod.Listeners[0].Port) != 81 {
		t.Fatalf("ModifyListener: %v", err)
	}
	if _, err := c.ModifyListener(ctx, &elb.ModifyListenerInput{ListenerArn: l.ListenerArn, Port: aws.Int32(443)}); errorCode(err) != "DuplicateListener" {
		t.Errorf("moving a listener onto another's port: %v, want DuplicateListener", err)
	}
	if _, err := c.ModifyListener(ctx, &elb.ModifyListenerInput{ListenerArn: l.ListenerArn, Protocol: types.ProtocolEnumHttps}); errorCode(err) != "ValidationError" {
		t.Errorf("HTTPS without a certificate: %v, want ValidationError", err)
	}

	// Dependencies: a group in use cannot be deleted; deleting the listener, or the load balancer
	// with its listeners, frees it.
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: web}); errorCode(err) != "ResourceInUse" {
		t.Errorf("deleting a target group in use: %v, want ResourceInUse", err)
	}
	if _, err := c.DeleteListener(ctx, &elb.DeleteListenerInput{ListenerArn: l.ListenerArn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteListener(ctx, &elb.DeleteListenerInput{ListenerArn: l.ListenerArn}); errorCode(err) != "ListenerNotFound" {
		t.Errorf("deleting a deleted listener: %v, want ListenerNotFound", err)
	}
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: web}); err != nil {
		t.Errorf("deleting a freed target group: %v", err)
	}
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: tcp}); errorCode(err) != "ResourceInUse" {
		t.Errorf("deleting the NLB's target group: %v, want ResourceInUse", err)
	}
	if _, err := c.DeleteLoadBalancer(ctx, &elb.DeleteLoadBalancerInput{LoadBalancerArn: nlb}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: tcp}); err != nil {
		t.Errorf("deleting a target group whose load balancer is gone: %v", err)
	}
}

func TestELBv2Tags(t *testing.T) {
	_, c, n := elbClient(t)
	ctx := context.Background()
	in := alb("web", n)
	in.Tags = []types.Tag{{Key: aws.String("team"), Value: aws.String("edge")}}
	lb := aws.ToString(createLB(t, c, in).LoadBalancerArn)
	tg := aws.ToString(createTG(t, c, httpTG("web", n.vpc)).TargetGroupArn)
	l, err := c.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: &lb, Protocol: types.ProtocolEnumHttp, Port: aws.Int32(80), DefaultActions: forward(&tg)})
	if err != nil {
		t.Fatal(err)
	}
	listener := aws.ToString(l.Listeners[0].ListenerArn)
	if _, err := c.AddTags(ctx, &elb.AddTagsInput{ResourceArns: []string{lb, tg, listener}, Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RemoveTags(ctx, &elb.RemoveTagsInput{ResourceArns: []string{lb}, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.DescribeTags(ctx, &elb.DescribeTagsInput{ResourceArns: []string{lb, tg, listener}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, d := range out.TagDescriptions {
		for _, tag := range d.Tags {
			got[aws.ToString(d.ResourceArn)] = append(got[aws.ToString(d.ResourceArn)], aws.ToString(tag.Key)+"="+aws.ToString(tag.Value))
		}
	}
	want := map[string][]string{lb: {"env=prod"}, tg: {"env=prod"}, listener: {"env=prod"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DescribeTags\n-want +got:\n%s", diff)
	}
	many := make([]types.Tag, 50)
	for i := range many {
		many[i] = types.Tag{Key: aws.String(strings.Repeat("k", i+1)), Value: aws.String("v")}
	}
	twentyOne := make([]string, 21)
	for i := range twentyOne {
		twentyOne[i] = lb
	}
	cases := map[string]struct {
		reason string
		args   func() error
		want   string
	}{
		"TooMany": {"A resource has at most 50 tags.", func() error {
			_, err := c.AddTags(ctx, &elb.AddTagsInput{ResourceArns: []string{tg}, Tags: many})
			return err
		}, "TooManyTags"},
		"Duplicate": {"A key is given once.", func() error {
			_, err := c.AddTags(ctx, &elb.AddTagsInput{ResourceArns: []string{tg}, Tags: []types.Tag{{Key: aws.String("a")}, {Key: aws.String("a")}}})
			return err
		}, "DuplicateTagKeys"},
		"MissingLB": {"Each resource must exist.", func() error {
			_, err := c.DescribeTags(ctx, &elb.DescribeTagsInput{ResourceArns: []string{lb + "0"}})
			return err
		}, "LoadBalancerNotFound"},
		"MissingTG": {"Each resource must exist.", func() error {
			_, err := c.RemoveTags(ctx, &elb.RemoveTagsInput{ResourceArns: []string{tg + "0"}, TagKeys: []string{"a"}})
			return err
		}, "TargetGroupNotFound"},
		"MissingListener": {"Each resource must exist.", func() error {
			_, err := c.DescribeTags(ctx, &elb.DescribeTagsInput{ResourceArns: []string{listener + "0"}})
			return err
		}, "ListenerNotFound"},
		"TwentyOne": {"DescribeTags takes at most 20 ARNs.", func() error {
			_, err := c.DescribeTags(ctx, &elb.DescribeTagsInput{ResourceArns: twentyOne})
			return err
		}, "ValidationError"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(tc.args())); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestELBv2UnknownOperation checks that operations the emulator lacks get the router's error,
// never a made-up answer.
func TestELBv2UnknownOperation(t *testing.T) {
	_, c, _ := elbClient(t)
	if _, err := c.DescribeTrustStores(context.Background(), &elb.DescribeTrustStoresInput{}); errorCode(err) != "InvalidAction" {
		t.Errorf("DescribeTrustStores: %v, want InvalidAction", err)
	}
}
