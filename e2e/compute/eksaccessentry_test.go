package compute_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestEKSAccessEntry applies examples/compute/eks-access.yaml verbatim and walks its access
// entry through its life: it becomes Ready for the IAMRole it names, in the cluster it names,
// with its group and access policy, tagged as the object's, and a steady-state sync writes
// nothing; an access policy disassociated and another associated behind the operator's back
// are put back as the spec says; the groups, the username and the set of access policies
// change in place; deleting the object deletes the entry; a Preview, and changePolicy Manual,
// show a change with AWS's values and the spec's before it is made.
func TestEKSAccessEntry(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	api := h.eks()
	ctx := context.Background()
	began := time.Now()
	x := h.applyEKSAccess(t, ns)
	ready := time.Since(began)
	created := opsOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS"), "AccessEntr", "AccessPolic")

	role := kubetest.WaitReady(t, h.c, &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "platform-admin"}})
	e := x.entry
	if x.cluster.Status.AuthenticationMode != "API" {
		t.Errorf("the cluster's status shows the authentication mode %q, want API", x.cluster.Status.AuthenticationMode)
	}
	if s := e.Status; s.ClusterName != "apps" || s.PrincipalARN != role.Status.ARN || s.PrincipalARN == "" ||
		!strings.HasPrefix(s.AccessEntryARN, "arn:aws:eks:us-east-1:"+seedAccount+":access-entry/apps/") ||
		!slices.Equal(s.AccessPolicies, []string{policyARN("AmazonEKSClusterAdminPolicy")}) || e.Annotations[shared.AnnotationExternalName] != role.Status.ARN {
		t.Errorf("status %+v, external name %q", s, e.Annotations[shared.AnnotationExternalName])
	}
	entry := h.accessEntry(t, api, "apps", role.Status.ARN)
	if entry.Tags[shared.TagOwnerUID] != string(e.UID) || aws.ToString(entry.Type) != "STANDARD" || !slices.Equal(entry.KubernetesGroups, []string{"platform-admins"}) {
		t.Errorf("access entry: type %s, groups %v, tags %v", aws.ToString(entry.Type), entry.KubernetesGroups, entry.Tags)
	}
	if got := h.accessPolicies(t, api, "apps", role.Status.ARN); !maps.Equal(got, map[string]string{policyARN("AmazonEKSClusterAdminPolicy"): "cluster"}) {
		t.Errorf("access policies %v, want AmazonEKSClusterAdminPolicy on the cluster", got)
	}
	if created["CreateAccessEntry"] != 1 || created["AssociateAccessPolicy"] != 1 || kubetest.Total(created) > 5 {
		t.Errorf("calls to create the entry: %v, want one CreateAccessEntry, one AssociateAccessPolicy and at most 5 in all", created)
	}

	// A steady-state sync reads the entry and its access policies, and writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, e, "a sync", func() bool { return kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")["ListAssociatedAccessPolicies"] > 0 })
	time.Sleep(500 * time.Millisecond)
	all := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")
	sync := opsOf(all, "AccessEntr", "AccessPolic")
	t.Logf("EKSAccessEntry: %d EKS calls to create %v, Ready %s after the example was applied (with its cluster and roles); %d per steady-state sync %v",
		kubetest.Total(created), created, ready.Round(time.Millisecond), kubetest.Total(sync), sync)
	if w := writesOf(all); len(w) > 0 {
		t.Errorf("a steady-state sync wrote to EKS: %v (%v)", w, all)
	}
	if n := kubetest.Total(sync); n > 2 {
		t.Errorf("a steady-state sync took %d access entry calls %v, want at most 2", n, sync)
	}

	// Drift: the spec's policy disassociated and another associated behind the operator's back.
	if _, err := api.DisassociateAccessPolicy(ctx, &eks.DisassociateAccessPolicyInput{ClusterName: aws.String("apps"), PrincipalArn: aws.String(role.Status.ARN),
		PolicyArn: aws.String(policyARN("AmazonEKSClusterAdminPolicy"))}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.AssociateAccessPolicy(ctx, &eks.AssociateAccessPolicyInput{ClusterName: aws.String("apps"), PrincipalArn: aws.String(role.Status.ARN),
		PolicyArn: aws.String(policyARN("AmazonEKSViewPolicy")), AccessScope: &types.AccessScope{Type: types.AccessScopeTypeCluster}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, e, "the spec's access policies restored", func() bool {
		return maps.Equal(h.accessPolicies(t, api, "apps", role.Status.ARN), map[string]string{policyARN("AmazonEKSClusterAdminPolicy"): "cluster"})
	})
	kubetest.WaitEvent(t, h.c, e, condition.ReasonDriftDetected, "accessPolicies[AmazonEKSClusterAdminPolicy]")

	// The groups, the username and the access policies change in place: one policy by ARN for
	// two namespaces, one by name for the cluster; the administrator policy goes.
	h.patchSpec(t, e, `{"kubernetesGroups":["platform-admins","auditors"],"username":"platform-admin","accessPolicies":[`+
		`{"policy":"arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy","accessScope":{"type":"namespace","namespaces":["orders","billing"]}},`+
		`{"policy":"AmazonEKSViewPolicy","accessScope":{"type":"cluster"}}]}`)
	kubetest.WaitFor(t, h.c, e, kubetest.Timeout, "groups, username and policies changed", func(o *v1alpha1.EKSAccessEntry) bool {
		return meta.IsStatusConditionTrue(o.Status.Conditions, condition.TypeReady) && o.Status.ObservedGeneration == o.Generation
	})
	entry = h.accessEntry(t, api, "apps", role.Status.ARN)
	if !slices.Equal(slices.Sorted(slices.Values(entry.KubernetesGroups)), []string{"auditors", "platform-admins"}) || aws.ToString(entry.Username) != "platform-admin" {
		t.Errorf("after the update: groups %v, username %q", entry.KubernetesGroups, aws.ToString(entry.Username))
	}
	want := map[string]string{policyARN("AmazonEKSEditPolicy"): "namespace:billing,orders", policyARN("AmazonEKSViewPolicy"): "cluster"}
	if got := h.accessPolicies(t, api, "apps", role.Status.ARN); !maps.Equal(got, want) {
		t.Errorf("after the update: access policies %v, want %v", got, want)
	}

	// Admission refuses what EKS would, and what cannot change.
	for _, tc := range []struct {
		mutate func(*v1alpha1.EKSAccessEntry)
		text   string
	}{
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.Type = "EC2_LINUX" }, "only a STANDARD access entry"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.ClusterName = "apps" }, "exactly one of clusterRef and clusterName"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.PrincipalRef = &shared.Reference{Name: "platform-admin"} }, "exactly one of principalRef and principalARN"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.PrincipalARN = "arn:aws:sts::123456789012:assumed-role/a/b" }, "spec.principalARN"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.KubernetesGroups = []string{"system:masters"} }, "cannot start with system:"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.Username = "eks:admin" }, "username cannot start with"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.AccessPolicies[0].Policy = "AdministratorAccess" }, "spec.accessPolicies[0].policy"},
		{func(o *v1alpha1.EKSAccessEntry) { o.Spec.AccessPolicies[0].AccessScope.Namespaces = nil }, "lists its namespaces"},
	} {
		bad := newAccessEntry(ns, "bad", func(o *v1alpha1.EKSAccessEntry) {
			o.Spec.KubernetesGroups = []string{"readers"}
			o.Spec.AccessPolicies = []v1alpha1.EKSAccessPolicy{{Policy: "AmazonEKSViewPolicy", AccessScope: v1alpha1.EKSAccessScope{Type: "namespace", Namespaces: []string{"orders"}}}}
			tc.mutate(o)
		})
		kubetest.MustRefuse(t, h.c, bad, tc.text)
	}
	kubetest.MustRefuseUpdate(t, h.c, e, func(o *v1alpha1.EKSAccessEntry) { o.Spec.PrincipalRef = &shared.Reference{Name: "orders-api"} }, "principalRef cannot change")
	kubetest.MustRefuseUpdate(t, h.c, e, func(o *v1alpha1.EKSAccessEntry) { o.Spec.ClusterRef = &shared.Reference{Name: "other"} }, "clusterRef cannot change")

	// One policy named twice, by name and by ARN, is refused before any AWS call.
	h.emu.Calls.Reset()
	twice := newAccessEntry(ns, "twice", func(o *v1alpha1.EKSAccessEntry) {
		o.Spec.AccessPolicies = []v1alpha1.EKSAccessPolicy{{Policy: "AmazonEKSViewPolicy", AccessScope: v1alpha1.EKSAccessScope{Type: "cluster"}},
			{Policy: policyARN("AmazonEKSViewPolicy"), AccessScope: v1alpha1.EKSAccessScope{Type: "cluster"}}}
	})
	kubetest.Create(t, h.c, twice)
	kubetest.WaitCondition(t, h.c, twice, condition.TypeSynced, "False", condition.ReasonInvalidSpec)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")["CreateAccessEntry"]; n != 0 {
		t.Errorf("an entry refused for its spec made %d CreateAccessEntry calls", n)
	}
	kubetest.Delete(t, h.c, twice)

	// Deletion deletes the entry, its associations with it.
	kubetest.Delete(t, h.c, e)
	if _, err := api.DescribeAccessEntry(ctx, &eks.DescribeAccessEntryInput{ClusterName: aws.String("apps"), PrincipalArn: aws.String(role.Status.ARN)}); !awserr.IsNotFound(err) {
		t.Errorf("the access entry is still there after its object went: %v", err)
	}

	// Previews, and changePolicy Manual: a change of the groups and of a policy's scope is
	// planned with AWS's values and the spec's before it is made.
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.EKSAccessEntry]{
		New: func(name string) *v1alpha1.EKSAccessEntry { return newAccessEntry(ns, name, nil) },
		Change: func(o *v1alpha1.EKSAccessEntry) {
			o.Spec.KubernetesGroups = []string{"auditors"}
			o.Spec.AccessPolicies[0].AccessScope = v1alpha1.EKSAccessScope{Type: "namespace", Namespaces: []string{"orders"}}
		},
		Calls: h.emu.Calls.Snapshot,
	})
}

// TestEKSAccessEntryClusterByName names clusters by name, as a hostile tenant would: a cluster
// no object of the namespace made is refused with ForeignWriteNotAllowed before any access
// entry call, as is the adoption of an entry of that cluster (left in place when the object is
// deleted), and waited for (ReferenceObserveOnly) when named through an EKSCluster that only
// observes it; the namespace's own cluster by name is written into (its entry created while
// every CreateAccessEntry answer is lost: the entry is found and claimed).
func TestEKSAccessEntryClusterByName(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	api := h.eks()
	ctx := context.Background()
	h.applyEKSAccess(t, ns)

	// A cluster made outside the operator, in the same account.
	subnets := h.zonedSubnets(t, "10.62")
	if _, err := api.CreateCluster(ctx, &eks.CreateClusterInput{Name: aws.String(ns + "-victim"), RoleArn: aws.String("arn:aws:iam::" + seedAccount + ":role/eks-cluster-role"),
		ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: subnets}, AccessConfig: &types.CreateAccessConfigRequest{AuthenticationMode: types.AuthenticationModeApi}}); err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	hostile := newAccessEntry(ns, "hostile", func(o *v1alpha1.EKSAccessEntry) { o.Spec.ClusterRef, o.Spec.ClusterName = nil, ns+"-victim" })
	kubetest.Create(t, h.c, hostile)
	got := kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if msg := meta.FindStatusCondition(got.Status.Conditions, condition.TypeSynced).Message; !strings.Contains(msg, "EKS cluster "+ns+"-victim") {
		t.Errorf("the refusal %q does not name the cluster", msg)
	}
	if w := writesOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")); len(w) > 0 {
		t.Errorf("an entry in a foreign cluster wrote to EKS: %v", w)
	}

	// An entry of that cluster, made outside the operator, adopted by the external-name
	// annotation: refused as well, and left in place when the object is deleted.
	victimEntry := "arn:aws:iam::" + seedAccount + ":role/victim-admin"
	if _, err := api.CreateAccessEntry(ctx, &eks.CreateAccessEntryInput{ClusterName: aws.String(ns + "-victim"), PrincipalArn: aws.String(victimEntry)}); err != nil {
		t.Fatal(err)
	}
	adopt := newAccessEntry(ns, "adopt", func(o *v1alpha1.EKSAccessEntry) {
		o.Spec.ClusterRef, o.Spec.ClusterName, o.Spec.PrincipalARN = nil, ns+"-victim", victimEntry
		o.Annotations = map[string]string{shared.AnnotationExternalName: victimEntry}
	})
	kubetest.Create(t, h.c, adopt)
	kubetest.WaitCondition(t, h.c, adopt, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	kubetest.Delete(t, h.c, adopt)
	if entry := h.accessEntry(t, api, ns+"-victim", victimEntry); len(entry.Tags) != 0 || len(h.accessPolicies(t, api, ns+"-victim", victimEntry)) != 0 {
		t.Errorf("the foreign cluster's entry was written to: tags %v", entry.Tags)
	}
	if w := writesOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")); !slices.Equal(w, []string{"CreateAccessEntry"}) {
		t.Errorf("writes to EKS while a foreign entry was adopted and its object deleted: %v, want only the test's own CreateAccessEntry", w)
	}

	// The same cluster through an EKSCluster of the namespace that only observes it: the entry
	// waits, since the operator never writes into an observed resource.
	observed := newEKSCluster(ns, "observed", ns+"-victim", subnets, func(o *v1alpha1.EKSCluster) {
		o.Spec.ProviderRef.Name, o.Spec.ManagementPolicy = "production-aws", shared.ManagementPolicyObserveOnly
		o.Spec.NodeGroups, o.Spec.Addons = nil, nil
	})
	kubetest.Create(t, h.c, observed)
	h.emu.Calls.Reset()
	through := newAccessEntry(ns, "through", func(o *v1alpha1.EKSAccessEntry) { o.Spec.ClusterRef = &shared.Reference{Name: "observed"} })
	kubetest.Create(t, h.c, through)
	kubetest.WaitCondition(t, h.c, through, condition.TypeReady, "False", condition.ReasonReferenceObserveOnly)
	if w := writesOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")); len(w) > 0 {
		t.Errorf("an entry through an observe-only cluster wrote to EKS: %v", w)
	}

	// The namespace's own cluster by name, every create answer lost.
	h.emu.Faults.Set("EKS.CreateAccessEntry", emulator.Fault{ErrorAfterRate: 1})
	own := newAccessEntry(ns, "own", func(o *v1alpha1.EKSAccessEntry) { o.Spec.ClusterRef, o.Spec.ClusterName = nil, "apps" })
	kubetest.Create(t, h.c, own)
	own = kubetest.WaitReady(t, h.c, own)
	h.emu.Faults.Set("EKS.CreateAccessEntry", emulator.Fault{})
	if own.Annotations[shared.AnnotationExternalName] != auditorRole {
		t.Errorf("the entry whose create answer was lost recorded %q", own.Annotations[shared.AnnotationExternalName])
	}
	if entry := h.accessEntry(t, api, "apps", auditorRole); entry.Tags[shared.TagOwnerUID] != string(own.UID) {
		t.Errorf("the entry made while its answers were lost has the tags %v", entry.Tags)
	}
}

// auditorRole is the principal of the access entries newAccessEntry makes.
const auditorRole = "arn:aws:iam::" + seedAccount + ":role/auditor"

// newAccessEntry returns an EKSAccessEntry in ns named name for the role auditor in the
// cluster of the EKSCluster apps, with the provider production-aws and the view policy on the
// cluster, changed by mutate.
func newAccessEntry(ns, name string, mutate func(*v1alpha1.EKSAccessEntry)) *v1alpha1.EKSAccessEntry {
	o := &v1alpha1.EKSAccessEntry{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	o.Spec.ProviderRef.Name = "production-aws"
	o.Spec.ClusterRef = &shared.Reference{Name: "apps"}
	o.Spec.PrincipalARN = auditorRole
	o.Spec.AccessPolicies = []v1alpha1.EKSAccessPolicy{{Policy: "AmazonEKSViewPolicy", AccessScope: v1alpha1.EKSAccessScope{Type: "cluster"}}}
	if mutate != nil {
		mutate(o)
	}
	return o
}
