package networking_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// startDNS starts the harness with Route 53's changes INSYNC after 300ms rather than 2s.
func startDNS(t testing.TB) *harness {
	t.Helper()
	transitions := maps.Clone(testTransitions)
	transitions["Route53"] = 300 * time.Millisecond
	return startWith(t, transitions, func(o *operator.Options) { o.WaitInterval = 200 * time.Millisecond })
}

// r53 returns a Route 53 client of the harness's emulator.
func (h *harness) r53() *route53.Client {
	return route53.NewFromConfig(h.env.AWSConfig(testAccessKey, testSecretKey))
}

// TestRoute53HostedZone creates a public zone and a private one and checks them in Route 53
// (name servers, comment, tags, the VPC associations as a set), that a zone whose id was lost is
// found again by its CallerReference rather than created twice, that another namespace's
// private zone on this namespace's VPC (by id) is refused before any write, what admission
// refuses, and that deleting a zone that holds a record set of someone else's waits with
// HostedZoneNotEmpty until the record set is gone.
func TestRoute53HostedZone(t *testing.T) {
	h := startDNS(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	api := h.r53()

	h.emu.Calls.Reset()
	began := time.Now()
	pub := &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public"}}
	pub.Spec.ProviderRef.Name, pub.Spec.Name, pub.Spec.Comment = "aws", "zone-test.example.com", "first"
	pub.Spec.Tags = map[string]string{"team": "web"}
	kubetest.Create(t, h.c, pub)
	pub = kubetest.WaitReady(t, h.c, pub)
	t.Logf("figures: public zone Ready %s after create; Route 53 calls %v", time.Since(began).Round(time.Millisecond), kubetest.Calls(h.emu.Calls.Snapshot(), "Route53"))
	id := pub.Status.HostedZoneID
	if strings.HasPrefix(id, "/") || len(pub.Status.NameServers) != 4 {
		t.Fatalf("status %+v", pub.Status)
	}
	got, err := api.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String(id)})
	if err != nil || aws.ToString(got.HostedZone.Name) != "zone-test.example.com." || aws.ToString(got.HostedZone.Config.Comment) != "first" ||
		aws.ToString(got.HostedZone.CallerReference) != string(pub.UID) {
		t.Fatalf("zone in Route 53: %+v, %v", got, err)
	}
	if tags := zoneTags(t, api, id); tags["team"] != "web" || tags[shared.TagOwnerNamespace] != ns {
		t.Errorf("zone tags %v", tags)
	}

	// A steady sync writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, pub, "the zone read again", func() bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["GetHostedZone"] > 0
	})
	time.Sleep(300 * time.Millisecond)
	steady := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")
	t.Logf("figures: Route 53 calls per steady sync of a zone %v", steady)
	if n := kubetest.Total(steady) - steady["GetHostedZone"] - steady["ListTagsForResource"]; n != 0 {
		t.Errorf("a steady sync made other calls: %v", steady)
	}

	// The comment changes; a zone whose id was lost is found again by its CallerReference.
	kubetest.Update(t, h.c, pub, func(z *v1alpha1.Route53HostedZone) {
		z.Spec.Comment = "second"
		delete(z.Annotations, shared.AnnotationExternalName)
	})
	kubetest.WaitFor(t, h.c, pub, kubetest.Timeout, "the comment applied", func(z *v1alpha1.Route53HostedZone) bool {
		return z.Status.ObservedGeneration == z.Generation && z.Status.Ready
	})
	if got, _ := api.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String(id)}); aws.ToString(got.HostedZone.Config.Comment) != "second" {
		t.Errorf("comment %q", aws.ToString(got.HostedZone.Config.Comment))
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["CreateHostedZone"]; n != 0 {
		t.Errorf("the zone was created again (%d CreateHostedZone calls)", n)
	}

	// A private zone: its VPCs are a set.
	a, b := h.readyVPC(t, ns, "dns-a", "10.61.0.0/16"), h.readyVPC(t, ns, "dns-b", "10.62.0.0/16")
	priv := &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "private"}}
	priv.Spec.ProviderRef.Name, priv.Spec.Name, priv.Spec.Private = "aws", "zone-test.internal", aws.Bool(true)
	priv.Spec.VPCRefs = []shared.Reference{{Name: "dns-a"}}
	kubetest.Create(t, h.c, priv)
	priv = kubetest.WaitReady(t, h.c, priv)
	if vpcs := zoneVPCs(t, api, priv.Status.HostedZoneID); !slices.Equal(vpcs, []string{a.Status.VPCID}) || len(priv.Status.NameServers) != 0 {
		t.Fatalf("private zone VPCs %v, status %+v", vpcs, priv.Status)
	}
	h.patchSpec(t, priv, `{"vpcRefs":[{"name":"dns-a"},{"name":"dns-b"}]}`)
	kubetest.WaitFor(t, h.c, priv, kubetest.Timeout, "two VPCs", func(z *v1alpha1.Route53HostedZone) bool { return len(z.Status.VPCIDs) == 2 })
	h.patchSpec(t, priv, `{"vpcRefs":[{"name":"dns-b"}]}`)
	kubetest.WaitFor(t, h.c, priv, kubetest.Timeout, "VPC b alone", func(z *v1alpha1.Route53HostedZone) bool {
		return slices.Equal(z.Status.VPCIDs, []string{b.Status.VPCID})
	})
	if vpcs := zoneVPCs(t, api, priv.Status.HostedZoneID); !slices.Equal(vpcs, []string{b.Status.VPCID}) {
		t.Errorf("private zone VPCs in Route 53 %v, want %s", vpcs, b.Status.VPCID)
	}

	// Another namespace's private zone on this namespace's VPC, by id, is refused.
	other := h.env.Namespace(t)
	h.provider(t, other, "aws")
	h.emu.Calls.Reset()
	hostile := &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "hostile"}}
	hostile.Spec.ProviderRef.Name, hostile.Spec.Name, hostile.Spec.Private = "aws", "hijack.internal", aws.Bool(true)
	hostile.Spec.VPCIDs = []string{a.Status.VPCID}
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["CreateHostedZone"]; n != 0 {
		t.Errorf("a refused zone made %d CreateHostedZone calls", n)
	}
	kubetest.Delete(t, h.c, hostile)

	// Admission refuses a private zone without VPCs, a public one with VPCs, and a new name.
	bad := &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bad"}}
	bad.Spec.ProviderRef.Name, bad.Spec.Name, bad.Spec.Private = "aws", "bad.internal", aws.Bool(true)
	kubetest.MustRefuse(t, h.c, bad, "a private zone needs at least one VPC")
	bad.Spec.Private, bad.Spec.VPCIDs = nil, []string{a.Status.VPCID}
	kubetest.MustRefuse(t, h.c, bad, "a public zone takes none")
	kubetest.MustRefuseUpdate(t, h.c, pub, func(z *v1alpha1.Route53HostedZone) { z.Spec.Name = "other.example.com" }, "name cannot change")
	kubetest.MustRefuseUpdate(t, h.c, priv, func(z *v1alpha1.Route53HostedZone) { z.Spec.Private, z.Spec.VPCRefs = nil, nil }, "private cannot change")

	// A record set the operator does not own keeps the zone: the deletion waits for it.
	stray := &r53types.ResourceRecordSet{Name: aws.String("stray.zone-test.example.com"), Type: r53types.RRTypeA, TTL: aws.Int64(60),
		ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("192.0.2.7")}}}
	if _, err := api.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(id),
		ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: r53types.ChangeActionCreate, ResourceRecordSet: stray}}}}); err != nil {
		t.Fatal(err)
	}
	if err := h.c.Delete(ctx, pub); err != nil {
		t.Fatal(err)
	}
	waiting := kubetest.WaitCondition(t, h.c, pub, condition.TypeReady, "False", condition.ReasonHostedZoneNotEmpty)
	if msg := conditionMessage(waiting.Status.Conditions, condition.TypeReady); !strings.Contains(msg, "A stray.zone-test.example.com.") {
		t.Errorf("HostedZoneNotEmpty message %q does not name the stray record set", msg)
	}
	if _, err := api.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(id),
		ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: r53types.ChangeActionDelete, ResourceRecordSet: stray}}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitGone(t, h.c, pub)
	if _, err := api.GetHostedZone(ctx, &route53.GetHostedZoneInput{Id: aws.String(id)}); err == nil {
		t.Errorf("zone %s still exists", id)
	}
	kubetest.Delete(t, h.c, priv)
	kubetest.WaitGone(t, h.c, priv)
}

// conditionMessage returns the message of the condition typ.
func conditionMessage(conds []metav1.Condition, typ string) string {
	for _, c := range conds {
		if c.Type == typ {
			return c.Message
		}
	}
	return ""
}

// zoneTags returns the tags of hosted zone id.
func zoneTags(t testing.TB, api *route53.Client, id string) map[string]string {
	t.Helper()
	out, err := api.ListTagsForResource(context.Background(), &route53.ListTagsForResourceInput{ResourceId: aws.String(id), ResourceType: r53types.TagResourceTypeHostedzone})
	if err != nil {
		t.Fatalf("tags of hosted zone %s: %v", id, err)
	}
	tags := map[string]string{}
	for _, tag := range out.ResourceTagSet.Tags {
		tags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return tags
}

// zoneVPCs returns the ids of the VPCs of hosted zone id, sorted.
func zoneVPCs(t testing.TB, api *route53.Client, id string) []string {
	t.Helper()
	out, err := api.GetHostedZone(context.Background(), &route53.GetHostedZoneInput{Id: aws.String(id)})
	if err != nil {
		t.Fatalf("get hosted zone %s: %v", id, err)
	}
	var ids []string
	for _, v := range out.VPCs {
		ids = append(ids, aws.ToString(v.VPCId))
	}
	slices.Sort(ids)
	return ids
}
