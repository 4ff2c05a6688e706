package compute_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// eksAccess is what examples/compute/eks-access.yaml makes, each Ready.
type eksAccess struct {
	cluster *v1alpha1.EKSCluster
	entry   *v1alpha1.EKSAccessEntry
	assoc   *v1alpha1.EKSPodIdentityAssociation
}

// applyEKSAccess applies examples/compute/eks-access.yaml verbatim into ns (whose provider
// production-aws the test made) and waits until its cluster, access entry and Pod Identity
// association are Ready.
func (h *harness) applyEKSAccess(t testing.TB, ns string) eksAccess {
	t.Helper()
	h.apply(t, "eks-access.yaml", ns)
	return eksAccess{
		cluster: kubetest.WaitReady(t, h.c, &v1alpha1.EKSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "apps"}}),
		entry:   kubetest.WaitReady(t, h.c, &v1alpha1.EKSAccessEntry{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "platform-admin"}}),
		assoc:   kubetest.WaitReady(t, h.c, &v1alpha1.EKSPodIdentityAssociation{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "orders-api"}}),
	}
}

// opsOf returns the calls of calls (operation -> count) whose operation names hold one of
// parts: the calls one kind makes, when the emulator served several kinds' calls meanwhile.
func opsOf(calls map[string]int, parts ...string) map[string]int {
	out := map[string]int{}
	for op, n := range calls {
		for _, p := range parts {
			if strings.Contains(op, p) {
				out[op] += n
				break
			}
		}
	}
	return out
}

// writesOf returns, sorted, the operations of calls that write (all but Describe, List and
// Get).
func writesOf(calls map[string]int) []string {
	var out []string
	for _, op := range slices.Sorted(maps.Keys(calls)) {
		if !strings.HasPrefix(op, "Describe") && !strings.HasPrefix(op, "List") && !strings.HasPrefix(op, "Get") {
			out = append(out, op)
		}
	}
	return out
}

// accessEntry reads the access entry of principal in cluster from EKS.
func (h *harness) accessEntry(t testing.TB, api *eks.Client, cluster, principal string) *types.AccessEntry {
	t.Helper()
	out, err := api.DescribeAccessEntry(context.Background(), &eks.DescribeAccessEntryInput{ClusterName: aws.String(cluster), PrincipalArn: aws.String(principal)})
	if err != nil {
		t.Fatalf("describe the access entry of %s in EKS cluster %s: %v", principal, cluster, err)
	}
	return out.AccessEntry
}

// accessPolicies lists the access policies associated with the entry of principal in cluster,
// as policy ARN -> scope type and namespaces ("cluster", "namespace:a,b").
func (h *harness) accessPolicies(t testing.TB, api *eks.Client, cluster, principal string) map[string]string {
	t.Helper()
	out, err := api.ListAssociatedAccessPolicies(context.Background(), &eks.ListAssociatedAccessPoliciesInput{ClusterName: aws.String(cluster),
		PrincipalArn: aws.String(principal)})
	if err != nil {
		t.Fatalf("list the access policies of %s in EKS cluster %s: %v", principal, cluster, err)
	}
	got := map[string]string{}
	for _, p := range out.AssociatedAccessPolicies {
		s := string(p.AccessScope.Type)
		if len(p.AccessScope.Namespaces) > 0 {
			s += ":" + strings.Join(slices.Sorted(slices.Values(p.AccessScope.Namespaces)), ",")
		}
		got[aws.ToString(p.PolicyArn)] = s
	}
	return got
}

// podIdentityAssociations lists the Pod Identity associations of namespace/serviceAccount in
// cluster, with their tags.
func (h *harness) podIdentityAssociations(t testing.TB, api *eks.Client, cluster, namespace, serviceAccount string) []*types.PodIdentityAssociation {
	t.Helper()
	ctx := context.Background()
	out, err := api.ListPodIdentityAssociations(ctx, &eks.ListPodIdentityAssociationsInput{ClusterName: aws.String(cluster),
		Namespace: aws.String(namespace), ServiceAccount: aws.String(serviceAccount)})
	if err != nil {
		t.Fatalf("list the Pod Identity associations of EKS cluster %s: %v", cluster, err)
	}
	var list []*types.PodIdentityAssociation
	for _, s := range out.Associations {
		d, err := api.DescribePodIdentityAssociation(ctx, &eks.DescribePodIdentityAssociationInput{ClusterName: aws.String(cluster), AssociationId: s.AssociationId})
		if err != nil {
			t.Fatalf("describe Pod Identity association %s: %v", aws.ToString(s.AssociationId), err)
		}
		list = append(list, d.Association)
	}
	return list
}

// policyARN is the ARN of the EKS access policy name.
func policyARN(name string) string {
	return "arn:aws:eks::aws:cluster-access-policy/" + name
}
