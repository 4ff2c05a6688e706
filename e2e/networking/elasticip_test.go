package networking_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestElasticIP allocates addresses with their tags, follows a change of the tags, and deletes
// them under each deletion policy: Delete releases the address, Retain keeps it tagged, Orphan
// keeps it without the ownership tags.
func TestElasticIP(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	eips := map[shared.DeletionPolicy]*v1alpha1.ElasticIP{}
	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyDelete, shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
		name := "eip-" + strings.ToLower(string(policy))
		e := &v1alpha1.ElasticIP{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		e.Spec.ProviderRef.Name, e.Spec.DeletionPolicy, e.Spec.Tags = "aws", policy, map[string]string{"Name": name}
		kubetest.Create(t, h.c, e)
		eips[policy] = e
	}
	for policy, e := range eips {
		e = kubetest.WaitReady(t, h.c, e)
		if e.Spec.Domain != "vpc" || e.Status.AllocationID == "" || e.Status.PublicIP == "" {
			t.Errorf("%s: spec %+v, status %+v", policy, e.Spec, e.Status)
		}
		addr := h.eipState(t, e.Status.AllocationID)
		if tags := tagMap(addr.Tags); tags["Name"] != e.Name || tags[shared.TagOwnerUID] != string(e.UID) {
			t.Errorf("%s: tags %v", policy, tags)
		}
	}

	e := eips[shared.DeletionPolicyDelete]
	h.patchSpec(t, e, `{"tags":{"Name":"renamed","Team":"net"}}`)
	e = kubetest.WaitReady(t, h.c, e)
	if tags := tagMap(h.eipState(t, e.Status.AllocationID).Tags); tags["Name"] != "renamed" || tags["Team"] != "net" {
		t.Errorf("tags after the change: %v", tags)
	}

	for policy, e := range eips {
		kubetest.Delete(t, h.c, e)
		switch policy {
		case shared.DeletionPolicyDelete:
			h.wantNoAddress(t, e.Status.AllocationID)
		case shared.DeletionPolicyRetain:
			if tags := tagMap(h.eipState(t, e.Status.AllocationID).Tags); tags[shared.TagOwnerUID] != string(e.UID) {
				t.Errorf("Retain: tags %v", tags)
			}
		case shared.DeletionPolicyOrphan:
			if tags := tagMap(h.eipState(t, e.Status.AllocationID).Tags); tags[shared.TagOwnerUID] != "" || tags["Name"] != "eip-orphan" {
				t.Errorf("Orphan: tags %v", tags)
			}
		}
	}
}
