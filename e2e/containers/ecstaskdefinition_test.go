package containers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestECSTaskDefinition applies the example task definition (its execution role by reference,
// a secret by reference) and checks the revision ECS registered, the calls it took, that a
// steady sync registers nothing, that a change registers the next revision and deregisters the
// previous one no service deploys, that a revision registered by a create whose answer was
// lost is adopted rather than registered twice, and that deleting the object deregisters its
// revisions.
func TestECSTaskDefinition(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	h.apply(t, "../security/secretsmanagersecret-api-key.yaml", "default")
	h.emu.Calls.Reset()
	began := time.Now()
	h.apply(t, "ecstaskdefinition.yaml", "default")
	role := kubetest.WaitReady(t, h.c, &secv1alpha1.IAMRole{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-task-execution"}})
	td := kubetest.WaitReady(t, h.c, &v1alpha1.ECSTaskDefinition{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}})
	t.Logf("figures: Ready in %s after apply (the execution role's propagation included); ECS calls to create %v",
		time.Since(began).Round(time.Millisecond), kubetest.Calls(h.emu.Calls.Snapshot(), "ECS"))
	if td.Status.Family != "production-web" || td.Status.Revision != 1 || !strings.HasSuffix(td.Status.TaskDefinitionARN, ":task-definition/production-web:1") {
		t.Fatalf("status %+v", td.Status)
	}
	secret := kubetest.WaitReady(t, h.c, &secv1alpha1.SecretsManagerSecret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api-key"}})
	got := h.taskDefinition(t, td.Status.TaskDefinitionARN)
	c := got.TaskDefinition.ContainerDefinitions[0]
	if aws.ToString(got.TaskDefinition.ExecutionRoleArn) != role.Status.ARN || aws.ToString(c.Image) != "public.ecr.aws/nginx/nginx:1.27" ||
		aws.ToString(c.Secrets[0].ValueFrom) != secret.Status.ARN || aws.ToString(got.TaskDefinition.Cpu) != "256" ||
		aws.ToString(c.PortMappings[0].Name) != "http" || c.LogConfiguration.Options["awslogs-group"] != "/ecs/production-web" {
		t.Errorf("revision in ECS: %+v, container %+v", got.TaskDefinition, c)
	}
	if tags := ecsTagMap(got.Tags); tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(td.UID) {
		t.Errorf("revision tags %v", tags)
	}

	// A steady sync reads and registers nothing.
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, td)
	kubetest.WaitFor(t, h.c, td, kubetest.Timeout, "the resync seen", func(o *v1alpha1.ECSTaskDefinition) bool {
		return kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")["DescribeTaskDefinition"] > 0
	})
	steady := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")
	t.Logf("figures: ECS calls per steady sync %v", steady)
	if steady["RegisterTaskDefinition"]+steady["TagResource"]+steady["DeregisterTaskDefinition"] != 0 {
		t.Errorf("a steady sync wrote: %v", steady)
	}

	// A change registers revision 2; revision 1, deployed by no ECSService, is deregistered.
	kubetest.Update(t, h.c, td, func(o *v1alpha1.ECSTaskDefinition) { o.Spec.Containers[0].Environment[0].Value = "debug" })
	td = kubetest.WaitFor(t, h.c, td, kubetest.Timeout, "revision 2 without previous revisions", func(o *v1alpha1.ECSTaskDefinition) bool {
		return o.Status.Revision == 2 && len(o.Status.PreviousRevisions) == 0 && isReady(o)
	})
	if old := h.taskDefinition(t, "production-web:1"); old.TaskDefinition.Status != types.TaskDefinitionStatusInactive {
		t.Errorf("revision 1 is %s, want INACTIVE", old.TaskDefinition.Status)
	}
	if env := h.taskDefinition(t, td.Status.TaskDefinitionARN).TaskDefinition.ContainerDefinitions[0].Environment; aws.ToString(env[0].Value) != "debug" {
		t.Errorf("revision 2 environment %+v", env)
	}

	// A revision registered for this object whose answer was lost (tagged with its UID) is
	// adopted as the latest: nothing is registered again.
	in := h.taskDefinition(t, td.Status.TaskDefinitionARN)
	lost, err := h.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String("production-web"),
		ContainerDefinitions: in.TaskDefinition.ContainerDefinitions, Cpu: in.TaskDefinition.Cpu, Memory: in.TaskDefinition.Memory,
		NetworkMode: in.TaskDefinition.NetworkMode, RequiresCompatibilities: in.TaskDefinition.RequiresCompatibilities,
		RuntimePlatform: in.TaskDefinition.RuntimePlatform, ExecutionRoleArn: in.TaskDefinition.ExecutionRoleArn, Tags: in.Tags})
	if err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, td, "the lost revision adopted", func() bool {
		return h.c.Get(ctx, keyOf(td), td) == nil && td.Status.TaskDefinitionARN == aws.ToString(lost.TaskDefinition.TaskDefinitionArn)
	})
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS")["RegisterTaskDefinition"]; n != 0 {
		t.Errorf("%d registrations after the lost one was found", n)
	}

	// Deleting the object deregisters every revision it registered.
	kubetest.Delete(t, h.c, td)
	kubetest.WaitGone(t, h.c, td)
	for _, rev := range []string{"production-web:2", "production-web:3"} {
		if got := h.taskDefinition(t, rev).TaskDefinition.Status; got != types.TaskDefinitionStatusInactive {
			t.Errorf("%s is %s after the deletion, want INACTIVE", rev, got)
		}
	}
}

// TestECSTaskDefinitionPassRole runs the operator with a --passable-roles rule: a task role of
// the account that the namespace does not own is refused before any ECS call, and an
// execution role the rule allows is registered.
func TestECSTaskDefinitionPassRole(t *testing.T) {
	h := startWith(t, emulator.Options{Transitions: ecsTransitions}, func(o *operator.Options) {
		o.WaitInterval = 200 * time.Millisecond
		o.PassableRoles = []string{"*=arn:aws:iam::{account}:role/shared-*"}
	})
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	h.emu.Calls.Reset()
	hostile := newTaskDefinition(ns, "hostile", func(o *v1alpha1.ECSTaskDefinition) {
		o.Spec.TaskRoleARN = "arn:aws:iam::000000000000:role/platform-admin"
	})
	kubetest.Create(t, h.c, hostile)
	kubetest.WaitCondition(t, h.c, hostile, condition.TypeSynced, "False", condition.ReasonRoleNotPassable)
	if n := h.awsCalls("ECS"); n != 0 {
		t.Errorf("a task definition refused for its role made %d ECS calls", n)
	}
	allowed := newTaskDefinition(ns, "allowed", func(o *v1alpha1.ECSTaskDefinition) {
		o.Spec.ExecutionRoleARN = "arn:aws:iam::000000000000:role/shared-ecs-execution"
	})
	kubetest.Create(t, h.c, allowed)
	allowed = kubetest.WaitReady(t, h.c, allowed)
	if got := aws.ToString(h.taskDefinition(t, allowed.Status.TaskDefinitionARN).TaskDefinition.ExecutionRoleArn); got != allowed.Spec.ExecutionRoleARN {
		t.Errorf("execution role %q, want %q", got, allowed.Spec.ExecutionRoleARN)
	}

	// Admission refuses what ECS would.
	ec2 := newTaskDefinition(ns, "bridge", func(o *v1alpha1.ECSTaskDefinition) { o.Spec.NetworkMode = "bridge" })
	kubetest.MustRefuse(t, h.c, ec2, "Fargate tasks use networkMode awsvpc")
	both := newTaskDefinition(ns, "both", func(o *v1alpha1.ECSTaskDefinition) {
		o.Spec.Containers[0].RepositoryRef = &shared.Reference{Name: "app-images"}
	})
	kubetest.MustRefuse(t, h.c, both, "set exactly one of image and repositoryRef")
	secrets := newTaskDefinition(ns, "secrets", func(o *v1alpha1.ECSTaskDefinition) {
		o.Spec.Containers[0].Secrets = []v1alpha1.ECSContainerSecret{{Name: "KEY", ValueFrom: "arn:aws:secretsmanager:us-east-1:000000000000:secret:k-AbCdEf"}}
	})
	kubetest.MustRefuse(t, h.c, secrets, "need an execution role")
	kubetest.MustRefuseUpdate(t, h.c, allowed, func(o *v1alpha1.ECSTaskDefinition) { o.Spec.Family = "other" }, "family cannot change")
}

// ecsTransitions are the emulator's ECS transitions of the tests that start their own harness.
var ecsTransitions = map[string]time.Duration{"ECS": 300 * time.Millisecond}

// newTaskDefinition returns a Fargate task definition of one nginx container in ns, changed by
// mutate.
func newTaskDefinition(ns, name string, mutate func(*v1alpha1.ECSTaskDefinition)) *v1alpha1.ECSTaskDefinition {
	o := &v1alpha1.ECSTaskDefinition{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	o.Spec.ProviderRef.Name = "aws"
	o.Spec.CPU, o.Spec.Memory = "256", "512"
	o.Spec.RequiresCompatibilities, o.Spec.NetworkMode = []string{"FARGATE"}, "awsvpc"
	o.Spec.Containers = []v1alpha1.ECSContainer{{Name: "web", Image: "public.ecr.aws/nginx/nginx:1.27",
		PortMappings: []v1alpha1.ECSPortMapping{{ContainerPort: 80, Protocol: "tcp", Name: "http"}}}}
	mutate(o)
	return o
}

// taskDefinition describes the revision ref names, with its tags.
func (h *harness) taskDefinition(t testing.TB, ref string) *ecs.DescribeTaskDefinitionOutput {
	t.Helper()
	out, err := h.ecs.DescribeTaskDefinition(context.Background(), &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String(ref),
		Include: []types.TaskDefinitionField{types.TaskDefinitionFieldTags}})
	if err != nil {
		t.Fatalf("describe task definition %s: %v", ref, err)
	}
	return out
}

// ecsTagMap returns ECS tags as a map.
func ecsTagMap(tags []types.Tag) map[string]string {
	out := map[string]string{}
	for _, tag := range tags {
		out[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return out
}
