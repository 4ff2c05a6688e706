package compute_test

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestEKSClusterExample applies examples/compute/ekscluster.yaml verbatim and walks one
// cluster through its life: it becomes Ready with its endpoint, certificate authority and OIDC
// issuer in the status, everything tagged as the object's, after one CreateCluster and with a
// few reads per steady-state sync; its node groups are scaled, added and removed as a set, and
// its add-ons likewise; a logging change and an endpoint access change are made as two
// updates, one after the other; the version goes up one minor version (two, or down, are
// refused at admission) and the node groups follow; a node group scaled outside the operator
// is restored; deleting the object deletes the node groups and add-ons, then the cluster.
func TestEKSClusterExample(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	api := h.eks()
	ctx := context.Background()
	h.apply(t, "ekscluster.yaml", ns)
	o := kubetest.WaitReady(t, h.c, &v1alpha1.EKSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "platform"}})
	created := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")

	s := o.Status
	if s.ClusterName != "platform" || s.Status != "ACTIVE" || s.Version != "1.31" || !strings.HasPrefix(s.Endpoint, "https://") ||
		!strings.HasPrefix(s.OIDCIssuer, "https://oidc.eks.us-east-1.amazonaws.com/id/") || !strings.HasPrefix(s.ARN, "arn:aws:eks:us-east-1:") ||
		!strings.HasPrefix(s.ClusterSecurityGroupID, "sg-") || !strings.HasPrefix(s.VPCID, "vpc-") {
		t.Errorf("status: %+v", s)
	}
	if pem, err := base64.StdEncoding.DecodeString(s.CertificateAuthorityData); err != nil || !strings.Contains(string(pem), "BEGIN CERTIFICATE") {
		t.Errorf("certificateAuthorityData is not a base64 PEM certificate: %v", err)
	}
	if len(s.NodeGroups) != 1 || s.NodeGroups[0] != (v1alpha1.EKSNodeGroupStatus{Name: "general", Status: "ACTIVE", DesiredSize: 2, Version: "1.31"}) {
		t.Errorf("node groups in the status: %+v", s.NodeGroups)
	}
	if names := addonNames(s.Addons); !slices.Equal(names, []string{"vpc-cni", "coredns", "kube-proxy"}) {
		t.Errorf("add-ons in the status: %+v", s.Addons)
	}
	c := h.cluster(t, api, "platform")
	if c.Tags[shared.TagOwnerUID] != string(o.UID) || c.Tags["team"] != "platform" || len(c.ResourcesVpcConfig.SubnetIds) != 2 ||
		len(c.ResourcesVpcConfig.SecurityGroupIds) != 1 || !c.ResourcesVpcConfig.EndpointPrivateAccess || !slices.Equal(enabledLogs(c), []string{"api", "audit"}) {
		t.Errorf("cluster: tags %v, VPC config %+v, logs %v", c.Tags, c.ResourcesVpcConfig, enabledLogs(c))
	}
	g := h.nodegroup(t, api, "platform", "general")
	if g.Tags[shared.TagOwnerUID] != string(o.UID) || g.Labels["workload"] != "general" || !slices.Equal(g.InstanceTypes, []string{"t3.medium"}) ||
		!managed.SameSet(g.Subnets, c.ResourcesVpcConfig.SubnetIds) {
		t.Errorf("node group: %+v", g)
	}
	if a := h.addon(t, api, "platform", "coredns"); a.Tags[shared.TagOwnerUID] != string(o.UID) {
		t.Errorf("add-on tags: %v", a.Tags)
	}

	// A steady-state sync reads the cluster, lists and reads its node group and add-ons, and
	// writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, o, "a sync", func() bool { return kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")["DescribeCluster"] > 0 })
	time.Sleep(500 * time.Millisecond)
	sync := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")
	if n := created["CreateCluster"]; n != 1 {
		t.Errorf("CreateCluster called %d times, want 1", n)
	}
	t.Logf("%d EKS calls to create %v; %d per steady-state sync %v", kubetest.Total(created), created, kubetest.Total(sync), sync)
	if n := kubetest.Total(sync); n > 7 {
		t.Errorf("a steady-state sync took %d calls %v, want at most 7", n, sync)
	}

	// Node groups as a set: general scaled, batch added with a taint; then general removed,
	// and an add-on swapped for another.
	h.patchSpec(t, o, `{"nodeGroups":[`+generalGroup(3)+`,`+batchGroup+`]}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "general scaled and batch added", func(x *v1alpha1.EKSCluster) bool {
		return isClusterReady(x) && len(x.Status.NodeGroups) == 2 && x.Status.NodeGroups[0].DesiredSize == 3 && x.Status.NodeGroups[1].Status == "ACTIVE"
	})
	if b := h.nodegroup(t, api, "platform", "batch"); b.CapacityType != types.CapacityTypesSpot || len(b.Taints) != 1 || b.Tags[shared.TagOwnerUID] != string(o.UID) {
		t.Errorf("batch node group: %+v", b)
	}
	h.patchSpec(t, o, `{"nodeGroups":[`+batchGroup+`],"addons":[{"name":"vpc-cni"},{"name":"coredns"},{"name":"aws-ebs-csi-driver"}]}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "general and kube-proxy removed, the EBS CSI driver added", func(x *v1alpha1.EKSCluster) bool {
		return isClusterReady(x) && len(x.Status.NodeGroups) == 1 && slices.Equal(addonNames(x.Status.Addons), []string{"vpc-cni", "coredns", "aws-ebs-csi-driver"})
	})
	if groups := h.nodegroups(t, api, "platform"); !slices.Equal(groups, []string{"batch"}) {
		t.Errorf("node groups in EKS: %v, want only batch", groups)
	}

	// Logging and endpoint access in one spec change: two updates, the second once the first
	// has ended.
	h.emu.Calls.Reset()
	h.patchSpec(t, o, `{"logging":["api","audit","authenticator"],"resourcesVPCConfig":{"endpointPrivateAccess":false,"publicAccessCIDRs":["203.0.113.0/24"]}}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "logging and endpoint access changed", func(x *v1alpha1.EKSCluster) bool {
		if !isClusterReady(x) || x.Status.ObservedGeneration != x.Generation {
			return false
		}
		c := h.cluster(t, api, "platform")
		return len(enabledLogs(c)) == 3 && !c.ResourcesVpcConfig.EndpointPrivateAccess && slices.Equal(c.ResourcesVpcConfig.PublicAccessCidrs, []string{"203.0.113.0/24"})
	})
	updates := h.emu.Calls.Snapshot()["EKS"]["UpdateClusterConfig"]
	if updates["success"] != 2 || len(updates) != 1 {
		t.Errorf("UpdateClusterConfig answered %v, want two successes and nothing else", updates)
	}

	// The version: two minor versions up and a downgrade are refused at admission (as are
	// changes of what is set at creation); one up is made, and the node group follows the
	// control plane.
	for _, patch := range []struct{ spec, text string }{
		{`{"version":"1.33"}`, "one minor version at a time"},
		{`{"version":"1.30"}`, "one minor version at a time"},
		{`{"clusterName":"platform2"}`, "clusterName cannot change"},
		{`{"roleARN":"arn:aws:iam::123456789012:role/other"}`, "roleARN cannot change"},
		{`{"nodeGroups":[` + strings.Replace(batchGroup, `"capacityType":"SPOT"`, `"capacityType":"ON_DEMAND"`, 1) + `]}`, "give the node group a new name"},
	} {
		err := h.c.Patch(ctx, o, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+patch.spec+`}`)))
		if err == nil || !strings.Contains(err.Error(), patch.text) {
			t.Errorf("patch %s: %v, want a refusal saying %q", patch.spec, err, patch.text)
		}
	}
	h.patchSpec(t, o, `{"version":"1.32"}`)
	kubetest.WaitFor(t, h.c, o, kubetest.Timeout, "upgraded to 1.32", func(x *v1alpha1.EKSCluster) bool {
		return isClusterReady(x) && x.Status.Version == "1.32" && x.Status.ObservedGeneration == x.Generation && x.Status.NodeGroups[0].Version == "1.32"
	})

	// Drift: batch scaled outside the operator is scaled back.
	if _, err := api.UpdateNodegroupConfig(ctx, &eks.UpdateNodegroupConfigInput{ClusterName: aws.String("platform"), NodegroupName: aws.String("batch"),
		ScalingConfig: &types.NodegroupScalingConfig{DesiredSize: aws.Int32(3)}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, o, "batch scaled back to 1", func() bool {
		b := h.nodegroup(t, api, "platform", "batch")
		return b.Status == types.NodegroupStatusActive && aws.ToInt32(b.ScalingConfig.DesiredSize) == 1
	})
	kubetest.WaitEvent(t, h.c, o, condition.ReasonDriftDetected, "nodeGroups[batch].scaling")

	// Deletion: the node group and the add-ons go first, then the cluster.
	kubetest.Delete(t, h.c, o)
	if _, err := api.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String("platform")}); !awserr.IsNotFound(err) {
		t.Errorf("the cluster is still there after its object went: %v", err)
	}
	// EKS refuses DeleteCluster while node groups exist: one successful call says they went
	// first. Since the counts were reset: batch and the three add-ons.
	calls := h.emu.Calls.Snapshot()["EKS"]
	if calls["DeleteNodegroup"]["success"] != 1 || calls["DeleteAddon"]["success"] != 3 || calls["DeleteCluster"]["success"] != 1 || len(calls["DeleteCluster"]) != 1 {
		t.Errorf("deletion calls: node groups %v, add-ons %v, cluster %v", calls["DeleteNodegroup"], calls["DeleteAddon"], calls["DeleteCluster"])
	}
}

// generalGroup is the example's node group with desired nodes.
func generalGroup(desired int) string {
	return `{"name":"general","nodeRoleARN":"arn:aws:iam::123456789012:role/eks-node-role","instanceTypes":["t3.medium"],"amiType":"AL2023_x86_64_STANDARD",` +
		`"capacityType":"ON_DEMAND","diskSize":20,"scaling":{"minSize":2,"desiredSize":` + strconv.Itoa(desired) + `,"maxSize":4},"labels":{"workload":"general"}}`
}

// batchGroup is a spot node group with a taint.
const batchGroup = `{"name":"batch","nodeRoleARN":"arn:aws:iam::123456789012:role/eks-node-role","capacityType":"SPOT",` +
	`"scaling":{"minSize":0,"desiredSize":1,"maxSize":3},"taints":[{"key":"batch","value":"true","effect":"NO_SCHEDULE"}]}`

// TestEKSClusterOwnership covers what protects AWS from mistakes: specs that admission
// refuses, a spec refused before any AWS call, a name taken by a cluster this object does not
// own, a CreateCluster whose answer is lost (the cluster is found and claimed, and exactly one
// exists), secrets encryption that can be added and never removed, and deletionPolicy Orphan,
// which keeps the cluster, its node group and its add-on and removes their ownership tags.
func TestEKSClusterOwnership(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	api := h.eks()
	ctx := context.Background()
	subnets := h.zonedSubnets(t, "10.50")

	for _, tc := range []struct {
		mutate func(*v1alpha1.EKSCluster)
		text   string
	}{
		{func(o *v1alpha1.EKSCluster) { o.Spec.ClusterName = "bad name" }, "spec.clusterName"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.Version = "2.0" }, "spec.version"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.RoleARN = "eks-cluster-role" }, "spec.roleARN"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.ResourcesVPCConfig.SubnetIDs = subnets[:1] }, "spec.resourcesVPCConfig.subnetIDs"},
		{func(o *v1alpha1.EKSCluster) {
			o.Spec.ResourcesVPCConfig.SubnetRefs = []shared.Reference{{Name: "a"}, {Name: "b"}}
		}, "give the subnets as subnetIDs, or as subnetRefs"},
		{func(o *v1alpha1.EKSCluster) {
			o.Spec.ResourcesVPCConfig.EndpointPublicAccess, o.Spec.ResourcesVPCConfig.EndpointPrivateAccess = aws.Bool(false), aws.Bool(false)
		}, "cannot both be false"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.ResourcesVPCConfig.PublicAccessCIDRs = []string{"203.0.113.0"} }, "IPv4 CIDR blocks"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.Logging = []string{"kubelet"} }, "spec.logging"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.NodeGroups[0].Scaling.DesiredSize = 5 }, "minSize <= desiredSize <= maxSize"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.NodeGroups[0].AMIType = "UBUNTU" }, "amiType"},
		{func(o *v1alpha1.EKSCluster) { o.Spec.Addons[0].ResolveConflicts = "KEEP" }, "resolveConflicts"},
	} {
		kubetest.MustRefuse(t, h.c, newEKSCluster(ns, "bad", "bad", subnets, tc.mutate), tc.text)
	}

	// A taint named twice is refused before any AWS call.
	dup := newEKSCluster(ns, "dup-taint", "dup-taint", subnets, func(o *v1alpha1.EKSCluster) {
		o.Spec.NodeGroups[0].Taints = []v1alpha1.EKSTaint{{Key: "a", Effect: "NO_SCHEDULE"}, {Key: "a", Value: "x", Effect: "NO_SCHEDULE"}}
	})
	kubetest.Create(t, h.c, dup)
	kubetest.WaitCondition(t, h.c, dup, "Synced", "False", condition.ReasonInvalidSpec)
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")); n != 0 {
		t.Errorf("%d EKS calls for a spec refused before any, want 0", n)
	}

	// A cluster of the same name made outside the operator is not taken.
	if _, err := api.CreateCluster(ctx, &eks.CreateClusterInput{Name: aws.String("taken"), RoleArn: aws.String("arn:aws:iam::123456789012:role/eks-cluster-role"),
		Version: aws.String("1.31"), ResourcesVpcConfig: &types.VpcConfigRequest{SubnetIds: subnets}}); err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	taken := newEKSCluster(ns, "taken", "taken", subnets, nil)
	kubetest.Create(t, h.c, taken)
	kubetest.WaitCondition(t, h.c, taken, "Synced", "False", condition.ReasonAlreadyExists)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")["CreateCluster"]; n != 0 {
		t.Errorf("CreateCluster called %d times for a name taken by another cluster", n)
	}
	kubetest.Delete(t, h.c, taken)
	if c := h.cluster(t, api, "taken"); c.Status != types.ClusterStatusActive && c.Status != types.ClusterStatusCreating {
		t.Errorf("the cluster made outside the operator is %s after the object that could not take it went", c.Status)
	}

	// Every CreateCluster answer is lost after EKS made the cluster: the cluster is found under
	// its name with the object's ownership tags and claimed; there is exactly one.
	h.emu.Faults.Set("EKS.CreateCluster", emulator.Fault{ErrorAfterRate: 1})
	crash := newEKSCluster(ns, "crash", "crash", subnets, func(o *v1alpha1.EKSCluster) { o.Spec.DeletionPolicy = shared.DeletionPolicyOrphan })
	kubetest.Create(t, h.c, crash)
	crash = kubetest.WaitReady(t, h.c, crash)
	h.emu.Faults.Set("EKS.CreateCluster", emulator.Fault{})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "EKS")["CreateCluster"]; n < 1 {
		t.Errorf("CreateCluster called %d times", n)
	}
	owned := 0
	for _, name := range h.clusters(t, api) {
		if h.cluster(t, api, name).Tags[shared.TagOwnerUID] == string(crash.UID) {
			owned++
		}
	}
	if owned != 1 || crash.Annotations[shared.AnnotationExternalName] != "crash" {
		t.Errorf("%d clusters carry the object's ownership tags after lost answers, recorded %q; want exactly one, recorded",
			owned, crash.Annotations[shared.AnnotationExternalName])
	}

	// Secrets encryption is added to the running cluster, and cannot be removed.
	h.patchSpec(t, crash, `{"encryption":{"kmsKeyARN":"`+kmsKey+`"}}`)
	kubetest.WaitFor(t, h.c, crash, kubetest.Timeout, "secrets encrypted", func(x *v1alpha1.EKSCluster) bool {
		c := h.cluster(t, api, "crash")
		return isClusterReady(x) && x.Status.ObservedGeneration == x.Generation && len(c.EncryptionConfig) == 1 &&
			aws.ToString(c.EncryptionConfig[0].Provider.KeyArn) == kmsKey
	})
	if err := h.c.Patch(ctx, crash, client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":{"encryption":null}}`))); err == nil ||
		!strings.Contains(err.Error(), "encryption cannot be removed or changed") {
		t.Errorf("removing encryption: %v, want a refusal", err)
	}

	// Orphan keeps the cluster, its node group and its add-on, without ownership tags.
	kubetest.Delete(t, h.c, crash)
	c := h.cluster(t, api, "crash")
	g, a := h.nodegroup(t, api, "crash", "workers"), h.addon(t, api, "crash", "vpc-cni")
	for what, tags := range map[string]map[string]string{"cluster": c.Tags, "node group": g.Tags, "add-on": a.Tags} {
		if _, ok := tags[shared.TagOwnerUID]; ok || tags["team"] != "platform" {
			t.Errorf("the orphaned %s has the tags %v", what, tags)
		}
	}
	if c.Status != types.ClusterStatusActive || g.Status != types.NodegroupStatusActive {
		t.Errorf("the orphaned cluster is %s and its node group %s", c.Status, g.Status)
	}
}

// kmsKey is a KMS key of the emulated account's region.
const kmsKey = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"

// newEKSCluster returns an EKSCluster in ns named name for the cluster clusterName in subnets,
// with the provider "aws", a node group "workers" and the vpc-cni add-on, changed by mutate.
func newEKSCluster(ns, name, clusterName string, subnets []string, mutate func(*v1alpha1.EKSCluster)) *v1alpha1.EKSCluster {
	o := &v1alpha1.EKSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	o.Spec.ProviderRef.Name = "aws"
	o.Spec.Tags = map[string]string{"team": "platform"}
	o.Spec.ClusterName, o.Spec.Version, o.Spec.RoleARN = clusterName, "1.31", "arn:aws:iam::123456789012:role/eks-cluster-role"
	o.Spec.ResourcesVPCConfig.SubnetIDs = subnets
	o.Spec.NodeGroups = []v1alpha1.EKSNodeGroup{{Name: "workers", NodeRoleARN: "arn:aws:iam::123456789012:role/eks-node-role",
		Scaling: v1alpha1.EKSNodeGroupScaling{MinSize: 1, DesiredSize: 1, MaxSize: 2}}}
	o.Spec.Addons = []v1alpha1.EKSAddon{{Name: "vpc-cni"}}
	if mutate != nil {
		mutate(o)
	}
	return o
}
