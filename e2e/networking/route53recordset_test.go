package networking_test

import (
	"context"
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
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestRoute53RecordSet applies the load balancer example and the Route 53 example verbatim
// (its CloudFront alias waits: the edge family is not installed here) and checks, through the
// SDK: the alias to the ALB by reference, the weighted pair, the TXT record, the private zone's
// CNAME, each with its ownership marker; readiness once the change is INSYNC; that a steady
// sync costs one ListResourceRecordSets; an update; drift reverted; a record set made outside
// the operator never overwritten; another namespace's record set in this namespace's zone (by
// id) refused; what admission refuses; and deletion of a record set with its marker.
func TestRoute53RecordSet(t *testing.T) {
	h := startDNS(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	api := h.r53()
	h.apply(t, "load-balancers.yaml", ns)
	alb := kubetest.WaitReady(t, h.c, &v1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "storefront"}})

	h.emu.Calls.Reset()
	began := time.Now()
	h.apply(t, "route53.yaml", ns)
	names := []string{"shop-www", "shop-api-stable", "shop-api-canary", "shop-spf", "shop-internal-db"}
	sets := map[string]*v1alpha1.Route53RecordSet{}
	for _, name := range names {
		sets[name] = kubetest.WaitReady(t, h.c, &v1alpha1.Route53RecordSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
	}
	calls := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")
	t.Logf("figures: two zones and five record sets Ready %s after apply; Route 53 calls %v", time.Since(began).Round(time.Millisecond), calls)
	if calls["ChangeResourceRecordSets"] != len(names) {
		t.Errorf("ChangeResourceRecordSets calls %d, want one a record set (%d)", calls["ChangeResourceRecordSets"], len(names))
	}
	zone := kubetest.WaitReady(t, h.c, &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop"}})
	zoneID := zone.Status.HostedZoneID
	for _, s := range sets {
		if s.Status.ChangeStatus != "INSYNC" || s.Status.HostedZoneID == "" {
			t.Errorf("%s: status %+v", s.Name, s.Status)
		}
	}
	www := recordSet(t, api, zoneID, "www.shop.example.com.", "A", "")
	if a := www.AliasTarget; a == nil || !strings.EqualFold(strings.TrimSuffix(aws.ToString(a.DNSName), "."), alb.Status.DNSName) ||
		aws.ToString(a.HostedZoneId) != alb.Status.CanonicalHostedZoneID || !a.EvaluateTargetHealth {
		t.Errorf("www alias %+v, want the ALB's %s in %s", www.AliasTarget, alb.Status.DNSName, alb.Status.CanonicalHostedZoneID)
	}
	if m := recordSet(t, api, zoneID, "_infra-operator-a.www.shop.example.com.", "TXT", ""); !strings.Contains(value(m), "uid="+string(sets["shop-www"].UID)) ||
		!strings.Contains(value(m), "owner="+ns+"/shop-www") {
		t.Errorf("www marker %q", value(m))
	}
	canary := recordSet(t, api, zoneID, "api.shop.example.com.", "A", "canary")
	if aws.ToInt64(canary.Weight) != 10 || aws.ToInt64(canary.TTL) != 60 {
		t.Errorf("canary %+v", canary)
	}
	if m := recordSet(t, api, zoneID, "_infra-operator-a.api.shop.example.com.", "TXT", "canary"); !strings.Contains(value(m), string(sets["shop-api-canary"].UID)) {
		t.Errorf("canary marker %+v", m)
	}
	if spf := recordSet(t, api, zoneID, "shop.example.com.", "TXT", ""); value(spf) != `"v=spf1 -all"` {
		t.Errorf("apex TXT %+v", spf)
	}
	internal := kubetest.WaitReady(t, h.c, &v1alpha1.Route53HostedZone{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop-internal"}})
	if db := recordSet(t, api, internal.Status.HostedZoneID, "db.shop.internal.", "CNAME", ""); value(db) != "db.shop.internal.example.net" {
		t.Errorf("private CNAME %+v", db)
	}
	recordSet(t, api, internal.Status.HostedZoneID, "_infra-operator-cname.db.shop.internal.", "TXT", "")

	// A steady sync costs one ListResourceRecordSets and writes nothing.
	stable := sets["shop-api-stable"]
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, stable, "the record set read again", func() bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ListResourceRecordSets"] > 0
	})
	time.Sleep(300 * time.Millisecond)
	steady := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")
	t.Logf("figures: Route 53 calls per steady sync of a record set %v", steady)
	if steady["ChangeResourceRecordSets"]+steady["GetChange"]+steady["GetHostedZone"] != 0 {
		t.Errorf("a steady sync made more than its listing: %v", steady)
	}

	// An update is one UPSERT, Ready again once INSYNC.
	kubetest.Update(t, h.c, sets["shop-api-canary"], func(r *v1alpha1.Route53RecordSet) { r.Spec.Weight = aws.Int64(20) })
	kubetest.WaitFor(t, h.c, sets["shop-api-canary"], kubetest.Timeout, "the weight applied", func(r *v1alpha1.Route53RecordSet) bool {
		return r.Status.ObservedGeneration == r.Generation && r.Status.Ready && r.Status.ChangeStatus == "INSYNC"
	})
	if c := recordSet(t, api, zoneID, "api.shop.example.com.", "A", "canary"); aws.ToInt64(c.Weight) != 20 {
		t.Errorf("canary weight %d after the update", aws.ToInt64(c.Weight))
	}

	// Drift: values changed outside the operator are put back.
	changed := recordSet(t, api, zoneID, "api.shop.example.com.", "A", "stable")
	changed.ResourceRecords = []r53types.ResourceRecord{{Value: aws.String("198.51.100.1")}}
	change(t, api, zoneID, r53types.ChangeActionUpsert, &changed)
	kubetest.ResyncUntil(t, h.c, stable, "the values put back", func() bool {
		return slices.Equal(values(recordSet(t, api, zoneID, "api.shop.example.com.", "A", "stable")), []string{"192.0.2.10", "192.0.2.11"})
	})

	// A record set made outside the operator is never overwritten.
	legacy := &r53types.ResourceRecordSet{Name: aws.String("legacy.shop.example.com"), Type: r53types.RRTypeA, TTL: aws.Int64(300),
		ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("192.0.2.99")}}}
	change(t, api, zoneID, r53types.ChangeActionCreate, legacy)
	h.emu.Calls.Reset()
	takeover := &v1alpha1.Route53RecordSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "legacy"}}
	takeover.Spec.ProviderRef.Name, takeover.Spec.ZoneRef = "production-aws", &shared.Reference{Name: "shop"}
	takeover.Spec.Name, takeover.Spec.Type, takeover.Spec.Records = "legacy", "A", []string{"192.0.2.1"}
	kubetest.Create(t, h.c, takeover)
	kubetest.WaitCondition(t, h.c, takeover, condition.TypeSynced, "False", condition.ReasonRecordSetNotOwned)
	kubetest.WaitEvent(t, h.c, takeover, condition.ReasonRecordSetNotOwned, "without this object's ownership marker")
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; n != 0 {
		t.Errorf("a record set not owned made %d ChangeResourceRecordSets calls", n)
	}
	// Deleting the object leaves the record set it does not own.
	kubetest.Delete(t, h.c, takeover)
	kubetest.WaitGone(t, h.c, takeover)
	if v := values(recordSet(t, api, zoneID, "legacy.shop.example.com.", "A", "")); !slices.Equal(v, []string{"192.0.2.99"}) {
		t.Errorf("the legacy record set changed: %v", v)
	}

	// Another namespace's record set in this namespace's zone, by id, is refused.
	other := h.env.Namespace(t)
	h.provider(t, other, "production-aws")
	h.emu.Calls.Reset()
	hostile := &v1alpha1.Route53RecordSet{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "hostile"}}
	hostile.Spec.ProviderRef.Name, hostile.Spec.ZoneID = "production-aws", zoneID
	hostile.Spec.Name, hostile.Spec.Type, hostile.Spec.Records = "login", "A", []string{"203.0.113.66"}
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; n != 0 {
		t.Errorf("a refused record set made %d ChangeResourceRecordSets calls", n)
	}
	kubetest.Delete(t, h.c, hostile)

	// A full name outside the zone is terminal, with no write.
	outside := takeover.DeepCopy()
	outside.ObjectMeta = metav1.ObjectMeta{Namespace: ns, Name: "outside"}
	outside.Spec.Name = "www.example.org."
	kubetest.Create(t, h.c, outside)
	kubetest.WaitCondition(t, h.c, outside, condition.TypeSynced, "False", condition.ReasonInvalidSpec)
	kubetest.Delete(t, h.c, outside)

	// Admission refuses what Route 53 would.
	bad := takeover.DeepCopy()
	bad.ObjectMeta = metav1.ObjectMeta{Namespace: ns, Name: "bad"}
	bad.Spec.AliasTarget = &v1alpha1.AliasTarget{ALBRef: &shared.Reference{Name: "storefront"}}
	kubetest.MustRefuse(t, h.c, bad, "set either aliasTarget, or records")
	bad.Spec.AliasTarget, bad.Spec.Type, bad.Spec.Records = nil, "CNAME", []string{"a.example.net", "b.example.net"}
	kubetest.MustRefuse(t, h.c, bad, "a CNAME record set holds exactly one record")
	bad.Spec.Type, bad.Spec.Records, bad.Spec.SetIdentifier = "A", []string{"192.0.2.1"}, "blue"
	kubetest.MustRefuse(t, h.c, bad, "a routing policy")
	bad.Spec.SetIdentifier, bad.Spec.Records = "", nil
	bad.Spec.AliasTarget = &v1alpha1.AliasTarget{ALBRef: &shared.Reference{Name: "storefront"}, DNSName: "x.example.net", HostedZoneID: "Z123"}
	kubetest.MustRefuse(t, h.c, bad, "set exactly one of albRef")
	kubetest.MustRefuseUpdate(t, h.c, sets["shop-www"], func(r *v1alpha1.Route53RecordSet) { r.Spec.Name = "shop" }, "name and type cannot change")

	// Deletion removes the record set and its marker in one batch.
	h.emu.Calls.Reset()
	kubetest.Delete(t, h.c, sets["shop-api-canary"])
	kubetest.WaitGone(t, h.c, sets["shop-api-canary"])
	if findRecordSet(t, api, zoneID, "api.shop.example.com.", "A", "canary") != nil || findRecordSet(t, api, zoneID, "_infra-operator-a.api.shop.example.com.", "TXT", "canary") != nil {
		t.Errorf("the canary record set or its marker still exists after the deletion")
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Route53")["ChangeResourceRecordSets"]; n != 1 {
		t.Errorf("deletion took %d ChangeResourceRecordSets calls, want 1", n)
	}
}

// recordSet returns the record set of the zone with the name, type and set identifier, and
// fails the test when there is none.
func recordSet(t testing.TB, api *route53.Client, zoneID, name, typ, set string) r53types.ResourceRecordSet {
	t.Helper()
	rs := findRecordSet(t, api, zoneID, name, typ, set)
	if rs == nil {
		t.Fatalf("no record set %s %s (%s) in zone %s", typ, name, set, zoneID)
	}
	return *rs
}

// findRecordSet returns the record set of the zone with the name, type and set identifier, or nil.
func findRecordSet(t testing.TB, api *route53.Client, zoneID, name, typ, set string) *r53types.ResourceRecordSet {
	t.Helper()
	out, err := api.ListResourceRecordSets(context.Background(), &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String(zoneID)})
	if err != nil {
		t.Fatalf("list the record sets of %s: %v", zoneID, err)
	}
	for _, rs := range out.ResourceRecordSets {
		if aws.ToString(rs.Name) == name && string(rs.Type) == typ && aws.ToString(rs.SetIdentifier) == set {
			return &rs
		}
	}
	return nil
}

// change submits one change to the zone.
func change(t testing.TB, api *route53.Client, zoneID string, action r53types.ChangeAction, rs *r53types.ResourceRecordSet) {
	t.Helper()
	if _, err := api.ChangeResourceRecordSets(context.Background(), &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String(zoneID),
		ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: action, ResourceRecordSet: rs}}}}); err != nil {
		t.Fatalf("%s %s: %v", action, aws.ToString(rs.Name), err)
	}
}

// value returns a record set's first value.
func value(rs r53types.ResourceRecordSet) string {
	if len(rs.ResourceRecords) == 0 {
		return ""
	}
	return aws.ToString(rs.ResourceRecords[0].Value)
}

// values returns a record set's values, sorted.
func values(rs r53types.ResourceRecordSet) []string {
	var out []string
	for _, r := range rs.ResourceRecords {
		out = append(out, aws.ToString(r.Value))
	}
	slices.Sort(out)
	return out
}
