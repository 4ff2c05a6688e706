package compute_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies the compute family's seed examples, one after the other, with
// the emulator's default lifecycle durations and the operator's default options, and reports
// for each the AWS calls it took to create, the time from apply (with real ids in place of the
// placeholders) to Ready, and the AWS calls of one sync at steady state. Run it with
// -benchtime=1x: every example is created once.
func BenchmarkSeedExamples(b *testing.B) {
	// The mapping's benchmark names a queue made outside the cluster by ARN, which the
	// administrator must allow (--foreign-write-namespaces).
	h := startWith(b, nil, func(o *operator.Options) { o.ForeignWriteNamespaces = []string{"default"} })
	h.provider(b, "default", "production-aws")
	b.Run("ec2instance-web-server.yaml", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		subnet, group := h.network(b, "10.0.0.0/16", "10.0.1.0/24")
		objs := kubetest.SeedObjects(b, seedPath("ec2instance-web-server.yaml"))
		objs[0].Object["spec"].(map[string]any)["subnetID"] = subnet
		objs[0].Object["spec"].(map[string]any)["securityGroupIDs"] = []any{group}
		h.emu.Calls.Reset()
		began := time.Now()
		kubetest.Create(b, h.c, objs[0])
		o := kubetest.WaitReady(b, h.c, &v1alpha1.EC2Instance{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-server"}})
		report(b, h, "EC2", o, began)
	})
	b.Run("lambdafunction-api-handler.yaml", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		h.codeObject(b, "my-lambda-code", "api-handler/v1.0.0.zip")
		subnet, group := h.network(b, "10.9.0.0/16", "10.9.1.0/24")
		objs := kubetest.SeedObjects(b, seedPath("lambdafunction-api-handler.yaml"))
		objs[0].Object["spec"].(map[string]any)["vpcConfig"] = map[string]any{"subnetIDs": []any{subnet}, "securityGroupIDs": []any{group}}
		h.emu.Calls.Reset()
		began := time.Now()
		kubetest.Create(b, h.c, objs[0])
		o := kubetest.WaitReady(b, h.c, &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api-handler"}})
		report(b, h, "Lambda", o, began)
	})
	b.Run("ekscluster.yaml", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		// The whole file at once: the VPC, subnets and security group the cluster refers to
		// are part of its time to Ready.
		h.emu.Calls.Reset()
		began := time.Now()
		h.apply(b, "ekscluster.yaml", "default")
		o := kubetest.WaitReady(b, h.c, &v1alpha1.EKSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "platform"}})
		report(b, h, "EKS", o, began)
	})
	b.Run("lambdaeventsourcemapping.yaml", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		// The queue and the function the example names by reference are made through the SDK
		// (the messaging family does not run here): the figures are the mapping's alone.
		function, queue := h.mappingSources(b, "bench-handler", "bench-queue")
		objs := kubetest.SeedObjects(b, seedPath("lambdaeventsourcemapping.yaml"))
		spec := objs[0].Object["spec"].(map[string]any)
		delete(spec, "functionRef")
		delete(spec, "queueRef")
		spec["functionName"], spec["eventSourceARN"] = function, queue
		h.emu.Calls.Reset()
		began := time.Now()
		kubetest.Create(b, h.c, objs[0])
		o := kubetest.WaitReady(b, h.c, &v1alpha1.LambdaEventSourceMapping{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: objs[0].GetName()}})
		report(b, h, "Lambda", o, began)
	})
	b.Run("lambdaalias.yaml", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		// The function the example names by reference is made through the SDK.
		function, _ := h.mappingSources(b, "bench-aliased", "bench-alias-queue")
		objs := kubetest.SeedObjects(b, seedPath("lambdaalias.yaml"))
		spec := objs[0].Object["spec"].(map[string]any)
		delete(spec, "functionRef")
		spec["functionName"] = function
		h.emu.Calls.Reset()
		began := time.Now()
		kubetest.Create(b, h.c, objs[0])
		o := kubetest.WaitReady(b, h.c, &v1alpha1.LambdaAlias{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: objs[0].GetName()}})
		report(b, h, "Lambda", o, began)
	})
	b.Run("eks-access.yaml", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		// The whole file at once: the time to Ready is the access entry's, with the cluster,
		// the subnets and the roles it waits for; the calls are the access entry's.
		h.emu.Calls.Reset()
		began := time.Now()
		h.apply(b, "eks-access.yaml", "default")
		o := kubetest.WaitReady(b, h.c, &v1alpha1.EKSAccessEntry{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "platform-admin"}})
		kubetest.SeedFigures(b, h.c, o, began, func() map[string]int {
			return opsOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS"), "AccessEntr", "AccessPolic")
		}, h.emu.Calls.Reset)
	})
	b.Run("eks-access.yaml/pod-identity", func(b *testing.B) {
		if b.N > 1 {
			b.Skip("each example is created once; run with -benchtime=1x")
		}
		// A second association of the example's cluster and role (the example's own is made
		// with the cluster): the figures are the association's alone.
		o := newAssociation("default", "bench", "bench", nil)
		h.emu.Calls.Reset()
		began := time.Now()
		kubetest.Create(b, h.c, o)
		o = kubetest.WaitReady(b, h.c, o)
		kubetest.SeedFigures(b, h.c, o, began, func() map[string]int { return opsOf(kubetest.Calls(h.emu.Calls.Snapshot(), "EKS"), "PodIdentity") },
			h.emu.Calls.Reset)
	})
}

// report reports the figures of o, Ready after its example was applied at began, counting the
// calls of service.
func report(b *testing.B, h *harness, service string, o client.Object, began time.Time) {
	kubetest.SeedFigures(b, h.c, o, began, func() map[string]int { return kubetest.Calls(h.emu.Calls.Snapshot(), service) }, h.emu.Calls.Reset)
}
