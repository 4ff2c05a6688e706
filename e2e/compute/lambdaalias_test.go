package compute_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLambdaAlias applies examples/compute/lambdaalias.yaml (in a namespace of the test's)
// before the function it names exists (it waits, with no Lambda call), then the serverless
// function: the alias points at $LATEST. With two versions published it moves to version 2
// with 10% of the traffic on version 1 in one UpdateAlias; admission refuses a numeric name,
// weights on $LATEST and a rename; deleting the object deletes the alias.
func TestLambdaAlias(t *testing.T) {
	h := start(t)
	ctx := context.Background()
	ns := h.env.Namespace(t)
	h.provider(t, ns, "production-aws")
	h.codeObject(t, "lambda-code", "api-handler.zip")
	example := func(name string) *v1alpha1.LambdaAlias {
		objs := kubetest.SeedObjects(t, seedPath("lambdaalias.yaml"))
		objs[0].SetNamespace(ns)
		objs[0].SetName(name)
		a := &v1alpha1.LambdaAlias{}
		if err := h.c.Scheme().Convert(objs[0], a, nil); err != nil {
			t.Fatal(err)
		}
		return a
	}
	key := metav1.ObjectMeta{Namespace: ns, Name: "api-handler-live"}
	h.emu.Calls.Reset()
	kubetest.Create(t, h.c, example(key.Name))
	kubetest.WaitCondition(t, h.c, &v1alpha1.LambdaAlias{ObjectMeta: key}, "Synced", "False", condition.ReasonReferenceNotFound)
	if n := kubetest.Total(kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")); n != 0 {
		t.Errorf("waiting for its function, the alias made %d Lambda calls, want 0", n)
	}
	fn := kubetest.ApplySeed(t, h.c, seedPath("lambdafunction-serverless.yaml"), ns)
	h.patchSpec(t, fn[0], `{"roleARN":"`+seedRole+`"}`)

	a := kubetest.WaitReady(t, h.c, &v1alpha1.LambdaAlias{ObjectMeta: key})
	if !strings.HasSuffix(a.Status.AliasARN, ":function:api-handler:live") || a.Status.FunctionVersion != "$LATEST" {
		t.Errorf("status: %+v", a.Status)
	}

	// Two published versions, then a gradual rollout: version 2 with 10% on version 1.
	for i := range 2 {
		kubetest.WaitFor(t, h.c, &v1alpha1.LambdaFunction{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "api-handler"}}, 30*time.Second, "Ready",
			func(f *v1alpha1.LambdaFunction) bool {
				return f.Status.Ready && f.Status.LastUpdateStatus != "InProgress"
			})
		if i == 1 {
			if _, err := h.lambda.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("api-handler"),
				Description: aws.String("second")}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1100 * time.Millisecond)
		}
		if _, err := h.lambda.PublishVersion(ctx, &lambda.PublishVersionInput{FunctionName: aws.String("api-handler")}); err != nil {
			t.Fatalf("publish version %d: %v", i+1, err)
		}
	}
	h.emu.Calls.Reset()
	kubetest.Update(t, h.c, a, func(a *v1alpha1.LambdaAlias) {
		a.Spec.FunctionVersion, a.Spec.Description = "2", "rollout of version 2"
		a.Spec.RoutingConfig = &v1alpha1.LambdaAliasRoutingConfig{AdditionalVersionWeights: map[string]string{"1": "0.1"}}
	})
	a = kubetest.WaitReady(t, h.c, &v1alpha1.LambdaAlias{ObjectMeta: key})
	got, err := h.lambda.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: aws.String("api-handler"), Name: aws.String("live")})
	if err != nil || aws.ToString(got.FunctionVersion) != "2" || got.RoutingConfig == nil || got.RoutingConfig.AdditionalVersionWeights["1"] != 0.1 ||
		aws.ToString(got.Description) != "rollout of version 2" {
		t.Errorf("alias after the update: %+v, %v", got, err)
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["UpdateAlias"]; n != 1 {
		t.Errorf("the change took %d UpdateAlias calls, want 1", n)
	}

	numeric := example("numeric")
	numeric.Spec.Name = "12"
	kubetest.MustRefuse(t, h.c, numeric, "only digits")
	latest := example("weighted-latest")
	latest.Spec.RoutingConfig = &v1alpha1.LambdaAliasRoutingConfig{AdditionalVersionWeights: map[string]string{"1": "0.5"}}
	kubetest.MustRefuse(t, h.c, latest, "not $LATEST")
	heavy := example("heavy")
	heavy.Spec.FunctionVersion = "2"
	heavy.Spec.RoutingConfig = &v1alpha1.LambdaAliasRoutingConfig{AdditionalVersionWeights: map[string]string{"1": "1.5"}}
	kubetest.MustRefuse(t, h.c, heavy, "weight from 0 to 1")
	kubetest.MustRefuseUpdate(t, h.c, a, func(a *v1alpha1.LambdaAlias) { a.Spec.Name = "other" }, "name cannot change")

	kubetest.Delete(t, h.c, a)
	kubetest.WaitGone(t, h.c, a)
	if _, err := h.lambda.GetAlias(ctx, &lambda.GetAliasInput{FunctionName: aws.String("api-handler"), Name: aws.String("live")}); err == nil {
		t.Error("the alias is still in Lambda after the object was deleted")
	}
}
