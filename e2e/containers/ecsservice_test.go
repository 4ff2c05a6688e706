package containers_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	netv1alpha1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestECSService applies the web service example behind the networking example's ALB and checks
// it in ECS (its target group resolved from the ALB by name, its subnets, its deployment
// configuration), the calls it took, that a steady sync writes nothing, that a new revision of
// its task definition rolls out (and the previous revision is deregistered once the service no
// longer runs it), that a revision whose image cannot be pulled is stopped by the circuit
// breaker, rolled back and reported as DeploymentFailed with the stopped tasks' reason, that a
// service in a cluster another namespace owns is refused before any write, and deletion.
func TestECSService(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	for _, file := range []string{"../security/secretsmanagersecret-api-key.yaml", "ecscluster.yaml", "ecstaskdefinition.yaml", "../networking/load-balancers.yaml"} {
		h.apply(t, file, "default")
	}
	kubetest.WaitFor(t, h.c, &netv1alpha1.ALB{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "storefront"}}, 2*time.Minute, "Ready", func(o *netv1alpha1.ALB) bool { return isReady(o) })
	kubetest.WaitReady(t, h.c, &v1alpha1.ECSTaskDefinition{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}})
	h.emu.Calls.Reset()
	began := time.Now()
	h.apply(t, "ecsservice.yaml", "default")
	s := kubetest.WaitFor(t, h.c, &v1alpha1.ECSService{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}}, time.Minute, "Ready", func(o *v1alpha1.ECSService) bool { return isReady(o) })
	t.Logf("figures: Ready in %s after apply (two tasks started); ECS calls to create %v", time.Since(began).Round(time.Millisecond),
		kubetest.Calls(h.emu.Calls.Snapshot(), "ECS"))
	alb := &netv1alpha1.ALB{}
	if err := h.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "storefront"}, alb); err != nil {
		t.Fatal(err)
	}
	app := alb.Status.TargetGroups[slices.IndexFunc(alb.Status.TargetGroups, func(g netv1alpha1.TargetGroupStatus) bool { return g.Name == "storefront-app" })]
	svc := h.service(t, "production", "web")
	if svc.DesiredCount != 2 || svc.RunningCount != 2 || aws.ToString(svc.LoadBalancers[0].TargetGroupArn) != app.ARN ||
		len(svc.NetworkConfiguration.AwsvpcConfiguration.Subnets) != 2 || !svc.DeploymentConfiguration.DeploymentCircuitBreaker.Rollback ||
		aws.ToInt32(svc.HealthCheckGracePeriodSeconds) != 30 {
		t.Errorf("service in ECS: %+v", svc)
	}
	if s.Status.RunningCount != 2 || !strings.HasSuffix(s.Status.TaskDefinition, "production-web:1") || s.Status.ClusterARN == "" {
		t.Errorf("status %+v", s.Status)
	}

	// A steady sync writes nothing.
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, s)
	kubetest.WaitFor(t, h.c, s, kubetest.Timeout, "the resync seen", func(*v1alpha1.ECSService) bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")["DescribeServices"] > 0
	})
	steady := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")
	t.Logf("figures: ECS calls per steady sync %v", steady)
	if steady["UpdateService"]+steady["TagResource"] != 0 {
		t.Errorf("a steady sync wrote: %v", steady)
	}

	// A new revision rolls out (a change the reference brings, not drift); the previous one is
	// deregistered once no deployment runs it.
	td := &v1alpha1.ECSTaskDefinition{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}}
	kubetest.Update(t, h.c, td, func(o *v1alpha1.ECSTaskDefinition) { o.Spec.Containers[0].Environment[0].Value = "debug" })
	s = kubetest.WaitFor(t, h.c, s, time.Minute, "revision 2 deployed", func(o *v1alpha1.ECSService) bool {
		return strings.HasSuffix(o.Status.TaskDefinition, "production-web:2") && isReady(o)
	})
	if c := findCondition(s, condition.TypeDrifted); c.Status == metav1.ConditionTrue {
		t.Errorf("a new revision of the referenced task definition was reported as drift: %+v", c)
	}
	kubetest.ResyncUntil(t, h.c, td, "revision 1 deregistered", func() bool {
		return h.taskDefinition(t, "production-web:1").TaskDefinition.Status == types.TaskDefinitionStatusInactive
	})

	// An image that cannot be pulled: the circuit breaker stops the deployment and rolls back.
	kubetest.Update(t, h.c, td, func(o *v1alpha1.ECSTaskDefinition) {
		o.Spec.Containers[0].Image = "000000000000.dkr.ecr.us-east-1.amazonaws.com/missing:1"
	})
	s = kubetest.WaitCondition(t, h.c, s, condition.TypeSynced, "False", condition.ReasonDeploymentFailed)
	if msg := findCondition(s, condition.TypeSynced).Message; !strings.Contains(msg, "CannotPullContainerError") || !strings.Contains(msg, "circuit breaker") {
		t.Errorf("DeploymentFailed message %q names no stopped task's reason", msg)
	}
	s = kubetest.WaitFor(t, h.c, s, time.Minute, "rolled back to revision 2", func(o *v1alpha1.ECSService) bool {
		return strings.HasSuffix(o.Status.TaskDefinition, "production-web:2") && o.Status.RunningCount == 2
	})
	if f := s.Status.FailedDeployment; f == nil || !strings.HasSuffix(f.TaskDefinition, "production-web:3") {
		t.Errorf("failed deployment %+v, want revision 3", f)
	}
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, s)
	time.Sleep(time.Second)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")["UpdateService"]; n != 0 {
		t.Errorf("the failed revision was deployed again (%d UpdateService) before the spec changed", n)
	}

	// Another namespace's service in this namespace's cluster, named by name, is refused.
	other := h.env.Namespace(t)
	h.provider(t, other, "production-aws")
	h.emu.Calls.Reset()
	hostile := &v1alpha1.ECSService{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "hostile"}}
	hostile.Spec.ProviderRef.Name = "production-aws"
	hostile.Spec.Cluster, hostile.Spec.TaskDefinition = "production", "production-web:2"
	hostile.Spec.Network = &v1alpha1.ECSServiceNetwork{SubnetIDs: svc.NetworkConfiguration.AwsvpcConfiguration.Subnets}
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonForeignWriteNotAllowed)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")["CreateService"]; n != 0 {
		t.Errorf("a refused service made %d CreateService calls", n)
	}
	kubetest.Delete(t, h.c, hostile)

	// Admission refuses what cannot change.
	kubetest.MustRefuseUpdate(t, h.c, s, func(o *v1alpha1.ECSService) { o.Spec.ServiceName = "other" }, "serviceName cannot change")
	kubetest.MustRefuseUpdate(t, h.c, s, func(o *v1alpha1.ECSService) { o.Spec.ClusterRef = &shared.Reference{Name: "other"} }, "the cluster cannot change")

	// Deletion scales the service to 0 and waits for ECS to drain it.
	kubetest.Delete(t, h.c, s)
	kubetest.WaitGone(t, h.c, s)
	out, err := h.ecs.DescribeServices(ctx, &ecs.DescribeServicesInput{Cluster: aws.String("production"), Services: []string{"web"}})
	if err != nil || (len(out.Services) > 0 && aws.ToString(out.Services[0].Status) != "INACTIVE") {
		t.Errorf("after the deletion: %+v, %v", out, err)
	}
}

// service describes the service name of cluster.
func (h *harness) service(t testing.TB, cluster, name string) types.Service {
	t.Helper()
	out, err := h.ecs.DescribeServices(context.Background(), &ecs.DescribeServicesInput{Cluster: aws.String(cluster), Services: []string{name}})
	if err != nil || len(out.Services) != 1 {
		t.Fatalf("describe service %s of %s: %+v, %v", name, cluster, out, err)
	}
	return out.Services[0]
}
