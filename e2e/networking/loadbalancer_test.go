package networking_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	elbtypes "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLoadBalancersExample applies the load balancer example (an ALB with a redirect and an
// HTTPS listener, an internal NLB) and checks AWS; then changes the spec (a health check, a
// renamed target group that replaces the old one, a listener fewer), reverts changes made in
// AWS (a listener and an attribute), and deletes both with nothing left in AWS.
func TestLoadBalancersExample(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	ctx := context.Background()
	h.apply(t, "load-balancers.yaml", ns)

	alb := kubetest.WaitReady(t, h.c, &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "storefront"}})
	st := alb.Status
	if st.State != "active" || !strings.Contains(st.DNSName, "storefront") || st.CanonicalHostedZoneID == "" || st.VPCID == "" || len(st.TargetGroups) != 2 || len(st.Listeners) != 2 {
		t.Fatalf("ALB status: %+v", st)
	}
	lb := h.loadBalancer(t, st.ARN)
	if lb.Scheme != elbtypes.LoadBalancerSchemeEnumInternetFacing || len(lb.AvailabilityZones) != 2 || len(lb.SecurityGroups) != 1 {
		t.Errorf("ALB in AWS: scheme %s, %d zones, security groups %v", lb.Scheme, len(lb.AvailabilityZones), lb.SecurityGroups)
	}
	sg := kubetest.WaitReady(t, h.c, &v1alpha1.SecurityGroup{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edge-web"}})
	if lb.SecurityGroups[0] != sg.Status.GroupID {
		t.Errorf("ALB security groups %v, want the SecurityGroup's %s", lb.SecurityGroups, sg.Status.GroupID)
	}
	tg := st.TargetGroups[slices.IndexFunc(st.TargetGroups, func(g v1alpha1.TargetGroupStatus) bool { return g.Name == "storefront-web" })]
	listeners := h.listeners(t, st.ARN)
	if got := listeners[80]; got.Protocol != "HTTP" || got.DefaultActions[0].Type != elbtypes.ActionTypeEnumRedirect ||
		aws.ToString(got.DefaultActions[0].RedirectConfig.Protocol) != "HTTPS" || aws.ToString(got.DefaultActions[0].RedirectConfig.Port) != "443" {
		t.Errorf("listener 80: %+v", got)
	}
	if got := listeners[443]; got.Protocol != "HTTPS" || aws.ToString(got.SslPolicy) != "ELBSecurityPolicy-TLS13-1-2-2021-06" ||
		aws.ToString(got.Certificates[0].CertificateArn) == "" || aws.ToString(got.DefaultActions[0].TargetGroupArn) != tg.ARN {
		t.Errorf("listener 443: %+v (target group %s)", got, tg.ARN)
	}
	group := h.targetGroup(t, tg.ARN)
	if tg.Name != "storefront-web" || aws.ToString(group.HealthCheckPath) != "/health" || aws.ToInt32(group.HealthCheckIntervalSeconds) != 15 ||
		aws.ToString(group.Matcher.HttpCode) != "200" || aws.ToString(group.VpcId) != st.VPCID {
		t.Errorf("target group %s in AWS: %+v", tg.Name, group)
	}
	if attrs := h.lbAttributes(t, st.ARN); attrs["routing.http.drop_invalid_header_fields.enabled"] != "true" {
		t.Errorf("ALB attributes: %v", attrs)
	}

	nlb := kubetest.WaitReady(t, h.c, &v1alpha1.NLB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db-proxy"}})
	nlbAWS := h.loadBalancer(t, nlb.Status.ARN)
	if nlbAWS.Type != elbtypes.LoadBalancerTypeEnumNetwork || nlbAWS.Scheme != elbtypes.LoadBalancerSchemeEnumInternal || len(nlbAWS.AvailabilityZones) != 2 {
		t.Errorf("NLB in AWS: %s %s in %d zones", nlbAWS.Type, nlbAWS.Scheme, len(nlbAWS.AvailabilityZones))
	}
	if got := h.listeners(t, nlb.Status.ARN)[5432]; got.Protocol != "TCP" || aws.ToString(got.DefaultActions[0].TargetGroupArn) != nlb.Status.TargetGroups[0].ARN {
		t.Errorf("NLB listener 5432: %+v", got)
	}

	// A new health check path, a renamed target group (the old one goes once the listener
	// moved), one target group less, and no more redirect listener.
	kubetest.Update(t, h.c, alb, func(b *v1alpha1.ALB) {
		b.Spec.TargetGroups = b.Spec.TargetGroups[:1]
		b.Spec.TargetGroups[0].Name = "storefront-v2"
		b.Spec.TargetGroups[0].HealthCheck.Path = "/ready"
		b.Spec.Listeners = []v1alpha1.Listener{{Port: 443, Protocol: "HTTPS", CertificateARN: "arn:aws:acm:us-east-1:123456789012:certificate/8f6b2c1e-2d4a-4c3b-9f1e-0a1b2c3d4e5f",
			DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "storefront-v2"}}}}
	})
	alb = waitApplied(t, h, alb)
	if len(alb.Status.TargetGroups) != 1 || alb.Status.TargetGroups[0].Name != "storefront-v2" || len(alb.Status.Listeners) != 1 {
		t.Fatalf("after the change: %+v", alb.Status)
	}
	listeners = h.listeners(t, alb.Status.ARN)
	if _, ok := listeners[80]; ok || aws.ToString(listeners[443].DefaultActions[0].TargetGroupArn) != alb.Status.TargetGroups[0].ARN {
		t.Errorf("listeners after the change: %+v", listeners)
	}
	if aws.ToString(h.targetGroup(t, alb.Status.TargetGroups[0].ARN).HealthCheckPath) != "/ready" {
		t.Error("the new target group does not have the new health check path")
	}
	if _, err := h.elb.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{TargetGroupArns: []string{tg.ARN}}); err == nil {
		t.Errorf("the renamed target group %s is still in AWS", tg.Name)
	}

	// Drift: a listener and an attribute changed in AWS are brought back.
	if _, err := h.elb.CreateListener(ctx, &elb.CreateListenerInput{LoadBalancerArn: aws.String(alb.Status.ARN), Port: aws.Int32(8080), Protocol: elbtypes.ProtocolEnumHttp,
		DefaultActions: []elbtypes.Action{{Type: elbtypes.ActionTypeEnumFixedResponse, FixedResponseConfig: &elbtypes.FixedResponseActionConfig{StatusCode: aws.String("404")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.elb.ModifyLoadBalancerAttributes(ctx, &elb.ModifyLoadBalancerAttributesInput{LoadBalancerArn: aws.String(alb.Status.ARN),
		Attributes: []elbtypes.LoadBalancerAttribute{{Key: aws.String("idle_timeout.timeout_seconds"), Value: aws.String("300")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, alb, "drift reverted", func() bool {
		_, extra := h.listeners(t, alb.Status.ARN)[8080]
		return !extra && h.lbAttributes(t, alb.Status.ARN)["idle_timeout.timeout_seconds"] == "60"
	})
	kubetest.WaitEvent(t, h.c, alb, "DriftDetected", "listeners")

	kubetest.Delete(t, h.c, alb)
	kubetest.Delete(t, h.c, nlb)
	if out, err := h.elb.DescribeLoadBalancers(ctx, &elb.DescribeLoadBalancersInput{}); err != nil || len(out.LoadBalancers) != 0 {
		t.Errorf("load balancers left in AWS: %v (%v)", out, err)
	}
	if out, err := h.elb.DescribeTargetGroups(ctx, &elb.DescribeTargetGroupsInput{}); err != nil || len(out.TargetGroups) != 0 {
		t.Errorf("target groups left in AWS: %v (%v)", out, err)
	}
}

// TestLoadBalancerBadInput checks admission refusals (rules and targets included), AWS's refusal of what admission cannot
// know, and a target group name that another owner holds.
func TestLoadBalancerBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	newALB := func(name string, mutate func(*v1alpha1.ALB)) *v1alpha1.ALB {
		b := &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		b.Spec.ProviderRef.Name, b.Spec.SubnetIDs = "aws", []string{"subnet-0a", "subnet-0b"}
		b.Spec.TargetGroups = []v1alpha1.TargetGroup{{Name: "web", Protocol: "HTTP", Port: aws.Int32(80)}}
		b.Spec.Listeners = []v1alpha1.Listener{{Port: 80, Protocol: "HTTP", DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "web"}}}}
		if mutate != nil {
			mutate(b)
		}
		return b
	}
	for name, tc := range map[string]struct {
		obj  client.Object
		want string
	}{
		"SubnetsTwice":  {newALB("a", func(b *v1alpha1.ALB) { b.Spec.SubnetRefs = []shared.Reference{{Name: "x"}} }), "exactly one of subnetIDs, subnetRefs and subnetSelector"},
		"NoCertificate": {newALB("a", func(b *v1alpha1.ALB) { b.Spec.Listeners[0].Protocol = "HTTPS" }), "HTTPS and TLS listeners need certificateARN"},
		"UnknownGroup":  {newALB("a", func(b *v1alpha1.ALB) { b.Spec.Listeners[0].DefaultAction.Forward.TargetGroup = "api" }), "forwards to a target group named in spec.targetGroups"},
		"LambdaPort":    {newALB("a", func(b *v1alpha1.ALB) { b.Spec.TargetGroups[0].TargetType = "lambda" }), "except for targetType lambda"},
		"InternalName":  {newALB("internal-web", nil), "not a valid load balancer name"},
		"TwoActions": {newALB("a", func(b *v1alpha1.ALB) {
			b.Spec.Listeners[0].DefaultAction.FixedResponse = &v1alpha1.FixedResponseAction{StatusCode: "404"}
		}), "exactly one of forward, redirect and fixedResponse"},
		"IPTargetOnInstanceGroup": {newALB("a", func(b *v1alpha1.ALB) { b.Spec.TargetGroups[0].Targets = []v1alpha1.Target{{IP: "10.0.1.5"}} }),
			"a target group's targets match its targetType"},
		"TwoTargetKinds": {newALB("a", func(b *v1alpha1.ALB) {
			b.Spec.TargetGroups[0].Targets = []v1alpha1.Target{{InstanceID: "i-0123456789abcdef0", IP: "10.0.1.5"}}
		}), "set exactly one of instanceRef, instanceID, ip, lambdaRef and lambdaFunctionARN"},
		"RuleUnknownGroup": {newALB("a", func(b *v1alpha1.ALB) {
			b.Spec.Listeners[0].Rules = []v1alpha1.ListenerRule{{Priority: 1, Conditions: []v1alpha1.RuleCondition{{PathPattern: []string{"/api/*"}}},
				Action: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroup: "api"}}}}
		}), "a listener rule forwards to a target group named in spec.targetGroups"},
		"TwoConditionsInOne": {newALB("a", func(b *v1alpha1.ALB) {
			b.Spec.Listeners[0].Rules = []v1alpha1.ListenerRule{{Priority: 1, Conditions: []v1alpha1.RuleCondition{{PathPattern: []string{"/a"}, HostHeader: []string{"a.example.com"}}},
				Action: v1alpha1.Action{FixedResponse: &v1alpha1.FixedResponseAction{StatusCode: "404"}}}}
		}), "set exactly one of hostHeader, pathPattern, httpHeader, queryString, sourceIP and httpRequestMethod"},
		"StickinessWithoutDuration": {newALB("a", func(b *v1alpha1.ALB) {
			b.Spec.Listeners[0].DefaultAction.Forward = &v1alpha1.ForwardAction{TargetGroups: []v1alpha1.WeightedTargetGroup{{Name: "web"}},
				Stickiness: &v1alpha1.GroupStickiness{Enabled: true}}
		}), "stickiness that is enabled needs durationSeconds"},
		"RulesOnNLB": {func() client.Object {
			b := &v1alpha1.NLB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "n"}}
			b.Spec.ProviderRef.Name, b.Spec.SubnetIDs = "aws", []string{"subnet-0a"}
			b.Spec.Listeners = []v1alpha1.Listener{{Port: 80, Protocol: "TCP", DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroupARN: "arn:aws:elasticloadbalancing:us-east-1:000000000000:targetgroup/x/0123"}},
				Rules: []v1alpha1.ListenerRule{{Priority: 1, Conditions: []v1alpha1.RuleCondition{{PathPattern: []string{"/"}}},
					Action: v1alpha1.Action{FixedResponse: &v1alpha1.FixedResponseAction{StatusCode: "404"}}}}}}
			return b
		}(), "listener rules are for the HTTP and HTTPS listeners of an ALB"},
		"WeightedOnNLB": {func() client.Object {
			b := &v1alpha1.NLB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "n"}}
			b.Spec.ProviderRef.Name, b.Spec.SubnetIDs = "aws", []string{"subnet-0a"}
			b.Spec.Listeners = []v1alpha1.Listener{{Port: 80, Protocol: "TCP", DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{
				TargetGroups: []v1alpha1.WeightedTargetGroup{{ARN: "arn:aws:elasticloadbalancing:us-east-1:000000000000:targetgroup/x/0123"}}}}}}
			return b
		}(), "an NLB's listeners forward to one target group"},
		"NLBHTTP": {func() client.Object {
			b := &v1alpha1.NLB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "n"}}
			b.Spec.ProviderRef.Name, b.Spec.SubnetIDs = "aws", []string{"subnet-0a"}
			b.Spec.Listeners = []v1alpha1.Listener{{Port: 80, Protocol: "HTTP", DefaultAction: v1alpha1.Action{Forward: &v1alpha1.ForwardAction{TargetGroupARN: "arn:aws:elasticloadbalancing:us-east-1:000000000000:targetgroup/x/0123"}}}}
			return b
		}(), "the listeners of an NLB use the protocols TCP, TLS, UDP and TCP_UDP"},
	} {
		t.Run(name, func(t *testing.T) { kubetest.MustRefuse(t, h.c, tc.obj, tc.want) })
	}

	// One subnet is refused by AWS (an ALB needs two zones): a clear condition, no crash.
	vpc := h.readyVPC(t, ns, "net", "10.0.0.0/16")
	subnets := []string{h.subnet(t, ns, "a", vpc, "10.0.1.0/24", "us-east-1a"), h.subnet(t, ns, "b", vpc, "10.0.2.0/24", "us-east-1b")}
	one := newALB("one-subnet", func(b *v1alpha1.ALB) { b.Spec.SubnetIDs = subnets[:1] })
	kubetest.Create(t, h.c, one)
	got := kubetest.WaitFor(t, h.c, one, kubetest.Timeout, "a refusal", func(b *v1alpha1.ALB) bool {
		return slices.ContainsFunc(b.Status.Conditions, func(c metav1.Condition) bool {
			return c.Type == "Synced" && c.Status == "False" && strings.Contains(c.Message, "two different Availability Zones")
		})
	})
	if got.Status.ARN != "" {
		t.Errorf("a refused load balancer has an ARN: %s", got.Status.ARN)
	}
	// Fixing the spec recovers it, and its scheme is then fixed.
	kubetest.Update(t, h.c, one, func(b *v1alpha1.ALB) { b.Spec.SubnetIDs = subnets })
	one = kubetest.WaitReady(t, h.c, one)
	if err := h.c.Patch(ctx, one, client.RawPatch("application/merge-patch+json", []byte(`{"spec":{"scheme":"internal"}}`))); err == nil || !strings.Contains(err.Error(), "scheme cannot change") {
		t.Errorf("changing the scheme: %v", err)
	}
	// Deletion protection holds the load balancer, with a condition saying so, until it is
	// turned off; nothing is deleted meanwhile.
	kubetest.Update(t, h.c, one, func(b *v1alpha1.ALB) { b.Spec.Attributes = map[string]string{"deletion_protection.enabled": "true"} })
	one = waitApplied(t, h, one)
	if err := h.c.Delete(ctx, one); err != nil {
		t.Fatal(err)
	}
	got = kubetest.WaitCondition(t, h.c, one, "Synced", "False", "InvalidSpec")
	if msg := findCondition(got.Status.Conditions, "Synced").Message; !strings.Contains(msg, "deletion protection") {
		t.Errorf("the condition does not name deletion protection: %q", msg)
	}
	if l := h.listeners(t, one.Status.ARN); len(l) != 1 {
		t.Errorf("a protected load balancer lost its listeners: %v", l)
	}
	h.patchSpec(t, one, `{"attributes":{"deletion_protection.enabled":"false"}}`)
	kubetest.WaitGone(t, h.c, one)

	// A target group name held by a group this object did not create is not taken over.
	if _, err := h.elb.CreateTargetGroup(ctx, &elb.CreateTargetGroupInput{Name: aws.String("taken"), Protocol: elbtypes.ProtocolEnumHttp,
		Port: aws.Int32(80), VpcId: aws.String(vpc.Status.VPCID)}); err != nil {
		t.Fatal(err)
	}
	other := newALB("other", func(b *v1alpha1.ALB) {
		b.Spec.SubnetIDs = subnets
		b.Spec.TargetGroups[0].Name, b.Spec.Listeners[0].DefaultAction.Forward.TargetGroup = "taken", "taken"
	})
	kubetest.Create(t, h.c, other)
	got = kubetest.WaitCondition(t, h.c, other, "Synced", "False", "AlreadyExists")
	if msg := findCondition(got.Status.Conditions, "Synced").Message; !strings.Contains(msg, "target group taken") {
		t.Errorf("the condition does not name the target group: %q", msg)
	}
}

// waitApplied waits until the load balancer is Ready with its latest spec applied.
func waitApplied(t *testing.T, h *harness, b *v1alpha1.ALB) *v1alpha1.ALB {
	t.Helper()
	return kubetest.WaitFor(t, h.c, b, kubetest.Timeout, "the change applied", func(b *v1alpha1.ALB) bool {
		return b.Status.Ready && b.Status.ObservedGeneration == b.Generation
	})
}

// subnet creates a Subnet in vpc and returns its id once Ready.
func (h *harness) subnet(t *testing.T, ns, name string, vpc *v1alpha1.VPC, cidr, zone string) string {
	t.Helper()
	s := &v1alpha1.Subnet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	s.Spec.ProviderRef.Name, s.Spec.VPCID, s.Spec.CIDRBlock, s.Spec.AvailabilityZone = "aws", vpc.Status.VPCID, cidr, zone
	kubetest.Create(t, h.c, s)
	return kubetest.WaitReady(t, h.c, s).Status.SubnetID
}

// loadBalancer reads a load balancer from AWS.
func (h *harness) loadBalancer(t *testing.T, arn string) elbtypes.LoadBalancer {
	t.Helper()
	out, err := h.elb.DescribeLoadBalancers(context.Background(), &elb.DescribeLoadBalancersInput{LoadBalancerArns: []string{arn}})
	if err != nil {
		t.Fatalf("describe load balancer %s: %v", arn, err)
	}
	return out.LoadBalancers[0]
}

// listeners reads a load balancer's listeners from AWS, by port.
func (h *harness) listeners(t *testing.T, arn string) map[int32]elbtypes.Listener {
	t.Helper()
	out, err := h.elb.DescribeListeners(context.Background(), &elb.DescribeListenersInput{LoadBalancerArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("describe the listeners of %s: %v", arn, err)
	}
	byPort := map[int32]elbtypes.Listener{}
	for _, l := range out.Listeners {
		byPort[aws.ToInt32(l.Port)] = l
	}
	return byPort
}

// targetGroup reads a target group from AWS.
func (h *harness) targetGroup(t *testing.T, arn string) elbtypes.TargetGroup {
	t.Helper()
	out, err := h.elb.DescribeTargetGroups(context.Background(), &elb.DescribeTargetGroupsInput{TargetGroupArns: []string{arn}})
	if err != nil {
		t.Fatalf("describe target group %s: %v", arn, err)
	}
	return out.TargetGroups[0]
}

// lbAttributes reads a load balancer's attributes from AWS.
func (h *harness) lbAttributes(t *testing.T, arn string) map[string]string {
	t.Helper()
	out, err := h.elb.DescribeLoadBalancerAttributes(context.Background(), &elb.DescribeLoadBalancerAttributesInput{LoadBalancerArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("describe the attributes of %s: %v", arn, err)
	}
	attrs := map[string]string{}
	for _, a := range out.Attributes {
		attrs[aws.ToString(a.Key)] = aws.ToString(a.Value)
	}
	return attrs
}

// observedSubnetIDs returns the subnets of a load balancer's zones.
func observedSubnetIDs(lb elbtypes.LoadBalancer) []string {
	var ids []string
	for _, z := range lb.AvailabilityZones {
		ids = append(ids, aws.ToString(z.SubnetId))
	}
	return ids
}
