package compute_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestEKSClusterAccessConfig covers spec.accessConfig: a cluster created without it
// authenticates with API and gives its creator administrator rights; the authentication mode
// moves forward only, CONFIG_MAP to API in two updates, never back (refused at admission), and
// bootstrapClusterCreatorAdminPermissions never changes; a Preview, and changePolicy Manual,
// show the mode change with the cluster's mode and the spec's before it is made.
func TestEKSClusterAccessConfig(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	api := h.eks()
	subnets := h.zonedSubnets(t, "10.64")
	bare := func(mode string) func(*v1alpha1.EKSCluster) {
		return func(o *v1alpha1.EKSCluster) {
			o.Spec.NodeGroups, o.Spec.Addons = nil, nil
			if mode != "" {
				o.Spec.AccessConfig = &v1alpha1.EKSAccessConfig{AuthenticationMode: mode}
			}
		}
	}

	// The default: API, with the creator's administrator rights.
	def := newEKSCluster(ns, "default", ns+"-default", subnets, bare(""))
	kubetest.Create(t, h.c, def)
	def = kubetest.WaitReady(t, h.c, def)
	if c := h.cluster(t, api, ns+"-default"); c.AccessConfig == nil || c.AccessConfig.AuthenticationMode != types.AuthenticationModeApi ||
		def.Status.AuthenticationMode != "API" {
		t.Errorf("a cluster created without accessConfig: %+v, status %q", c.AccessConfig, def.Status.AuthenticationMode)
	}
	// The creator's access entry, which bootstrapClusterCreatorAdminPermissions (unset: true)
	// makes, is the cluster's only one.
	if entries, err := api.ListAccessEntries(context.Background(), &eks.ListAccessEntriesInput{ClusterName: aws.String(ns + "-default")}); err != nil || len(entries.AccessEntries) != 1 {
		t.Errorf("the access entries of a cluster created without accessConfig: %v (%v), want the creator's", entries, err)
	}
	kubetest.MustRefuseUpdate(t, h.c, def, func(o *v1alpha1.EKSCluster) {
		o.Spec.AccessConfig = &v1alpha1.EKSAccessConfig{BootstrapClusterCreatorAdminPermissions: aws.Bool(false)}
	}, "bootstrapClusterCreatorAdminPermissions is used only when the cluster is created")
	kubetest.MustRefuse(t, h.c, newEKSCluster(ns, "locked-out", ns+"-locked-out", subnets, func(o *v1alpha1.EKSCluster) {
		o.Spec.AccessConfig = &v1alpha1.EKSAccessConfig{AuthenticationMode: "CONFIG_MAP", BootstrapClusterCreatorAdminPermissions: aws.Bool(false)}
	}), "a CONFIG_MAP cluster needs bootstrapClusterCreatorAdminPermissions")

	// Forward from CONFIG_MAP to API: two updates, through API_AND_CONFIG_MAP.
	modes := newEKSCluster(ns, "modes", ns+"-modes", subnets, bare("CONFIG_MAP"))
	kubetest.Create(t, h.c, modes)
	modes = kubetest.WaitReady(t, h.c, modes)
	if modes.Status.AuthenticationMode != "CONFIG_MAP" {
		t.Errorf("status shows the mode %q, want CONFIG_MAP", modes.Status.AuthenticationMode)
	}
	h.emu.Calls.Reset()
	h.patchSpec(t, modes, `{"accessConfig":{"authenticationMode":"API"}}`)
	kubetest.WaitFor(t, h.c, modes, kubetest.Timeout, "the mode moved to API", func(o *v1alpha1.EKSCluster) bool {
		return isClusterReady(o) && o.Status.ObservedGeneration == o.Generation && o.Status.AuthenticationMode == "API"
	})
	if updates := h.emu.Calls.Snapshot()["EKS"]["UpdateClusterConfig"]; updates["success"] != 2 || len(updates) != 1 {
		t.Errorf("UpdateClusterConfig answered %v, want two successes (CONFIG_MAP to API_AND_CONFIG_MAP to API) and nothing else", updates)
	}
	kubetest.MustRefuseUpdate(t, h.c, modes, func(o *v1alpha1.EKSCluster) { o.Spec.AccessConfig.AuthenticationMode = "API_AND_CONFIG_MAP" },
		"authenticationMode goes only forward")

	// The plan of a mode change, previewed and then waiting for approval.
	kubetest.RunPreviewCheck(t, h.c, kubetest.PreviewCheck[*v1alpha1.EKSCluster]{
		New: func(name string) *v1alpha1.EKSCluster {
			return newEKSCluster(ns, name, ns+"-"+name, subnets, bare("CONFIG_MAP"))
		},
		Change: func(o *v1alpha1.EKSCluster) { o.Spec.AccessConfig.AuthenticationMode = "API_AND_CONFIG_MAP" },
		Calls:  h.emu.Calls.Snapshot,
	})
	if c := h.cluster(t, api, ns+"-modes"); c.AccessConfig.AuthenticationMode != types.AuthenticationModeApi {
		t.Errorf("the cluster authenticates with %s", c.AccessConfig.AuthenticationMode)
	}
}
