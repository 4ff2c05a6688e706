package compute_test

import (
	"context"
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
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestEKSPodIdentityAssociation applies examples/compute/eks-access.yaml verbatim and walks its
// Pod Identity association through its life: it becomes Ready with its id recorded, for the
// service account and the IAMRole it names, tagged as the object's, and a steady-state sync
// writes nothing; a role changed behind the operator's back is put back; another IAMRole is
// given in place (same association); a create whose answers are all lost makes exactly one
// association, found again by listing; deleting the object deletes the association.
func TestEKSPodIdentityAssociation(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	api := h.eks()
	ctx := context.Background()
	began := time.Now()
	x := h.applyEKSAccess(t, ns)
	ready := time.Since(began)
	created := opsOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS"), "PodIdentity")

	role := kubetest.WaitReady(t, h.c, &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-api"}})
	a := x.assoc
	s := a.Status
	if s.ClusterName != "apps" || s.AssociationID == "" || s.RoleARN != role.Status.ARN || s.RoleARN == "" ||
		!strings.HasPrefix(s.AssociationARN, "arn:aws:eks:us-east-1:"+seedAccount+":podidentityassociation/apps/") || a.Annotations[shared.AnnotationExternalName] != s.AssociationID {
		t.Errorf("status %+v, external name %q", s, a.Annotations[shared.AnnotationExternalName])
	}
	list := h.podIdentityAssociations(t, api, "apps", "orders", "orders-api")
	if len(list) != 1 || aws.ToString(list[0].AssociationId) != s.AssociationID || aws.ToString(list[0].RoleArn) != role.Status.ARN ||
		list[0].Tags[shared.TagOwnerUID] != string(a.UID) {
		t.Errorf("associations of orders/orders-api: %+v", list)
	}
	if created["CreatePodIdentityAssociation"] != 1 {
		t.Errorf("calls to create the association: %v, want one CreatePodIdentityAssociation", created)
	}

	// A steady-state sync reads the association once, and writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, a, "a sync", func() bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")["DescribePodIdentityAssociation"] > 0
	})
	time.Sleep(500 * time.Millisecond)
	all := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")
	sync := opsOf(all, "PodIdentity")
	t.Logf("EKSPodIdentityAssociation: %d EKS calls to create %v, Ready %s after the example was applied (with its cluster and roles); %d per steady-state sync %v",
		kubetest.Total(created), created, ready.Round(time.Millisecond), kubetest.Total(sync), sync)
	if w := writesOf(all); len(w) > 0 {
		t.Errorf("a steady-state sync wrote to EKS: %v (%v)", w, all)
	}
	if n := kubetest.Total(sync); n > 1 {
		t.Errorf("a steady-state sync took %d association calls %v, want 1", n, sync)
	}

	// Drift: the role changed behind the operator's back is put back.
	other := "arn:aws:iam::" + seedAccount + ":role/someone-else"
	if _, err := api.UpdatePodIdentityAssociation(ctx, &eks.UpdatePodIdentityAssociationInput{ClusterName: aws.String("apps"),
		AssociationId: aws.String(s.AssociationID), RoleArn: aws.String(other)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, a, "the role restored", func() bool {
		l := h.podIdentityAssociations(t, api, "apps", "orders", "orders-api")
		return len(l) == 1 && aws.ToString(l[0].RoleArn) == role.Status.ARN
	})
	kubetest.WaitEvent(t, h.c, a, condition.ReasonDriftDetected, "roleARN")

	// Another IAMRole of the namespace, given in place.
	v2 := &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-api-v2"}}
	v2.Spec.ProviderRef.Name = "production-aws"
	v2.Spec.RoleName, v2.Spec.AssumeRolePolicyDocument = "orders-api-v2", podsTrust
	kubetest.Create(t, h.c, v2)
	v2 = kubetest.WaitReady(t, h.c, v2)
	h.patchSpec(t, a, `{"roleRef":{"name":"orders-api-v2"}}`)
	a = kubetest.WaitFor(t, h.c, a, kubetest.Timeout, "the new role", func(o *v1alpha1.EKSPodIdentityAssociation) bool {
		return meta.IsStatusConditionTrue(o.Status.Conditions, condition.TypeReady) && o.Status.ObservedGeneration == o.Generation && o.Status.RoleARN == v2.Status.ARN
	})
	if l := h.podIdentityAssociations(t, api, "apps", "orders", "orders-api"); len(l) != 1 || aws.ToString(l[0].AssociationId) != s.AssociationID ||
		aws.ToString(l[0].RoleArn) != v2.Status.ARN {
		t.Errorf("after the role change: %+v, want association %s with %s", l, s.AssociationID, v2.Status.ARN)
	}

	// Admission refuses bad input, and changes of what an association is for.
	for _, tc := range []struct {
		mutate func(*v1alpha1.EKSPodIdentityAssociation)
		text   string
	}{
		{func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.RoleARN = role.Status.ARN }, "exactly one of roleRef and roleARN"},
		{func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.ClusterName = "apps" }, "exactly one of clusterRef and clusterName"},
		{func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.Namespace = "Orders" }, "spec.namespace"},
		{func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.RoleRef, o.Spec.RoleARN = nil, "orders-api" }, "spec.roleARN"},
	} {
		kubetest.MustRefuse(t, h.c, newAssociation(ns, "bad", "bad", tc.mutate), tc.text)
	}
	kubetest.MustRefuseUpdate(t, h.c, a, func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.Namespace = "billing" }, "namespace cannot change")
	kubetest.MustRefuseUpdate(t, h.c, a, func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.ServiceAccount = "other" }, "serviceAccount cannot change")

	// Every create answer lost: the association is found by listing the service account's,
	// and claimed by its ownership tags; there is exactly one.
	h.emu.Faults.Set("EKS.CreatePodIdentityAssociation", emulator.Fault{ErrorAfterRate: 1})
	crash := newAssociation(ns, "crash", "crash", nil)
	kubetest.Create(t, h.c, crash)
	crash = kubetest.WaitReady(t, h.c, crash)
	h.emu.Faults.Set("EKS.CreatePodIdentityAssociation", emulator.Fault{})
	l := h.podIdentityAssociations(t, api, "apps", "orders", "crash")
	if len(l) != 1 || aws.ToString(l[0].AssociationId) != crash.Annotations[shared.AnnotationExternalName] || l[0].Tags[shared.TagOwnerUID] != string(crash.UID) {
		t.Errorf("after lost answers: associations %+v, recorded %q; want exactly one, recorded", l, crash.Annotations[shared.AnnotationExternalName])
	}

	// Deletion deletes the association.
	kubetest.Delete(t, h.c, a)
	if _, err := api.DescribePodIdentityAssociation(ctx, &eks.DescribePodIdentityAssociationInput{ClusterName: aws.String("apps"),
		AssociationId: aws.String(s.AssociationID)}); !awserr.IsNotFound(err) {
		t.Errorf("the association is still there after its object went: %v", err)
	}
}

// TestEKSPodIdentityAssociationHostile runs the operator with a --passable-roles rule, as a
// cluster shared by teams is run, and tries what a hostile tenant would: a role of the account
// the namespace does not own, given by ARN, is refused by the pass-role rule, and a cluster no object of the
// namespace made, named by name, with ForeignWriteNotAllowed, each before any EKS write; the
// example's association, whose role is the namespace's own IAMRole, is made.
func TestEKSPodIdentityAssociationHostile(t *testing.T) {
	h := startWith(t, testTransitions, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		// The example's cluster role is the one role of the account the administrator lets
		// every namespace pass; the association's role is the namespace's own IAMRole.
		o.PassableRoles = []string{"*=arn:aws:iam::{account}:role/eks-cluster-role"}
	})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	api := h.eks()
	h.applyEKSAccess(t, ns)

	h.emu.Calls.Reset()
	admin := newAssociation(ns, "admin", "admin", func(o *v1alpha1.EKSPodIdentityAssociation) {
		o.Spec.RoleRef, o.Spec.RoleARN = nil, "arn:aws:iam::"+seedAccount+":role/platform-admin-elsewhere"
	})
	kubetest.Create(t, h.c, admin)
	got := kubetest.WaitCondition(t, h.c, admin, condition.TypeSynced, "False", condition.ReasonRoleNotPassable)
	if msg := meta.FindStatusCondition(got.Status.Conditions, condition.TypeSynced).Message; !strings.Contains(msg, "--passable-roles") {
		t.Errorf("the refusal %q does not name the operator flag", msg)
	}
	if calls := opsOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS"), "PodIdentity"); len(calls) != 0 {
		t.Errorf("an association refused for its role called EKS: %v", calls)
	}

	subnets := h.zonedSubnets(t, "10.63")
	if _, err := api.CreateCluster(context.Background(), &eks.CreateClusterInput{Name: aws.String(ns + "-victim"),
		RoleArn: aws.String("arn:aws:iam::" + seedAccount + ":role/eks-cluster-role"), ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: subnets}}); err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	foreign := newAssociation(ns, "foreign", "foreign", func(o *v1alpha1.EKSPodIdentityAssociation) { o.Spec.ClusterRef, o.Spec.ClusterName = nil, ns+"-victim" })
	kubetest.Create(t, h.c, foreign)
	kubetest.WaitCondition(t, h.c, foreign, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if w := writesOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")); len(w) > 0 {
		t.Errorf("an association in a foreign cluster wrote to EKS: %v", w)
	}
}

// podsTrust is a trust policy for EKS Pod Identity.
const podsTrust = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"pods.eks.amazonaws.com"},"Action":["sts:AssumeRole","sts:TagSession"]}]}`

// newAssociation returns an EKSPodIdentityAssociation in ns named name for the service account
// orders/serviceAccount in the cluster of the EKSCluster apps, with the IAMRole orders-api and
// the provider production-aws, changed by mutate.
func newAssociation(ns, name, serviceAccount string, mutate func(*v1alpha1.EKSPodIdentityAssociation)) *v1alpha1.EKSPodIdentityAssociation {
	o := &v1alpha1.EKSPodIdentityAssociation{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	o.Spec.ProviderRef.Name = "production-aws"
	o.Spec.ClusterRef = &shared.Reference{Name: "apps"}
	o.Spec.Namespace, o.Spec.ServiceAccount = "orders", serviceAccount
	o.Spec.RoleRef = &shared.Reference{Name: "orders-api"}
	if mutate != nil {
		mutate(o)
	}
	return o
}
