package containers_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestECSCluster applies the example cluster and checks it in ECS, changes its settings,
// capacity providers, strategy and namespace, reverts changes made behind the operator's back,
// keeps it while a service runs in it (ClusterNotEmpty, looked at with backoff and no
// DeleteCluster call) and deletes it once the service is
// gone; a cluster of the same name that no object owns is not taken over.
func TestECSCluster(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	h.apply(t, "ecscluster.yaml", "default")
	c := kubetest.WaitReady(t, h.c, &v1alpha1.ECSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-cluster"}})
	s := c.Status
	if s.ClusterName != "production" || s.ARN != "arn:aws:ecs:us-east-1:000000000000:cluster/production" || s.Status != "ACTIVE" ||
		s.ServiceConnectNamespace != "production" || !strings.Contains(s.ServiceConnectNamespaceARN, ":namespace/ns-") {
		t.Errorf("production-cluster status = %+v", s)
	}
	cl := h.cluster(t, "production")
	if insightsOf(cl) != "enabled" || !sameSet(cl.CapacityProviders, "FARGATE", "FARGATE_SPOT") ||
		!sameSet(strategyOf(cl), "FARGATE/1/2", "FARGATE_SPOT/3/0") || aws.ToString(cl.ServiceConnectDefaults.Namespace) != s.ServiceConnectNamespaceARN {
		t.Errorf("production in ECS = %+v", cl)
	}
	if tags := ecsTags(cl); tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(c.UID) {
		t.Errorf("production tags = %v", tags)
	}

	// Updates: enhanced insights, FARGATE only with its own strategy, no namespace.
	h.patchSpec(t, c, `{"containerInsights":"enhanced","capacityProviders":["FARGATE"],"defaultCapacityProviderStrategy":[{"capacityProvider":"FARGATE","weight":1}],"serviceConnectDefaults":null}`)
	c = kubetest.WaitReady(t, h.c, c)
	cl = h.cluster(t, "production")
	if insightsOf(cl) != "enhanced" || !sameSet(cl.CapacityProviders, "FARGATE") || !sameSet(strategyOf(cl), "FARGATE/1/0") ||
		(cl.ServiceConnectDefaults != nil && aws.ToString(cl.ServiceConnectDefaults.Namespace) != "") {
		t.Errorf("after the update production = %+v", cl)
	}

	// Drift made through the SDK is reverted.
	name := aws.String("production")
	if _, err := h.ecs.UpdateClusterSettings(ctx, &ecs.UpdateClusterSettingsInput{Cluster: name,
		Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("disabled")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecs.PutClusterCapacityProviders(ctx, &ecs.PutClusterCapacityProvidersInput{Cluster: name,
		CapacityProviders: []string{"FARGATE", "FARGATE_SPOT"}, DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecs.TagResource(ctx, &ecs.TagResourceInput{ResourceArn: aws.String(c.Status.ARN), Tags: []types.Tag{{Key: aws.String("Stray"), Value: aws.String("x")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, c, "the drift reverted", func() bool {
		cl := h.cluster(t, "production")
		_, stray := ecsTags(cl)["Stray"]
		return insightsOf(cl) == "enhanced" && sameSet(cl.CapacityProviders, "FARGATE") && sameSet(strategyOf(cl), "FARGATE/1/0") && !stray
	})

	// A service keeps the cluster, and the finalizer, until it is deleted.
	if _, err := h.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String("worker"),
		ContainerDefinitions: []types.ContainerDefinition{{Name: aws.String("app"), Image: aws.String("app:1"), Memory: aws.Int32(128)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecs.CreateService(ctx, &ecs.CreateServiceInput{Cluster: name, ServiceName: aws.String("worker"), TaskDefinition: aws.String("worker"),
		DesiredCount: aws.Int32(1), LaunchType: types.LaunchTypeEc2}); err != nil {
		t.Fatal(err)
	}
	if err := h.c.Delete(ctx, c); err != nil {
		t.Fatal(err)
	}
	c = kubetest.WaitCondition(t, h.c, c, "Synced", "False", condition.ReasonClusterNotEmpty)
	if msg := findCondition(c, "Synced").Message; !strings.Contains(msg, "1 active services") || !strings.Contains(msg, "deletionPolicy") {
		t.Errorf("the condition does not say why and what to do: %q", msg)
	}
	if len(c.Finalizers) == 0 || aws.ToString(h.cluster(t, "production").Status) != "ACTIVE" {
		t.Errorf("the busy cluster was released or deleted")
	}
	// While the service runs, the deletion looks at doubling intervals (2s, 4s, ...) and asks
	// ECS to delete nothing; a fixed interval (200ms here) would look some 30 times in 6s.
	h.emu.Calls.Reset()
	time.Sleep(6 * time.Second)
	if calls := kubetest.Calls(h.emu.Calls.Snapshot(), "ECS"); calls["DeleteCluster"] != 0 || calls["DescribeClusters"] > 4 {
		t.Errorf("the busy cluster's deletion did not back off: %v", calls)
	}
	if _, err := h.ecs.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: name, Service: aws.String("worker"), Force: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitGone(t, h.c, c)
	if got := aws.ToString(h.cluster(t, "production").Status); got != "INACTIVE" {
		t.Errorf("after the deletion the cluster is %s, want INACTIVE", got)
	}

	// ECS lists the deleted cluster as INACTIVE for a while: it counts as gone, and the
	// example applied again makes a new ACTIVE cluster of the name.
	h.apply(t, "ecscluster.yaml", "default")
	c = kubetest.WaitReady(t, h.c, &v1alpha1.ECSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-cluster"}})
	if cl := h.cluster(t, "production"); aws.ToString(cl.Status) != "ACTIVE" || ecsTags(cl)[shared.TagOwnerUID] != string(c.UID) {
		t.Errorf("the cluster made again is %s with tags %v", aws.ToString(cl.Status), ecsTags(cl))
	}

	// deletionPolicy Orphan keeps the cluster without the ownership tags.
	h.patchSpec(t, c, `{"deletionPolicy":"Orphan"}`)
	c = kubetest.WaitReady(t, h.c, c)
	kubetest.Delete(t, h.c, c)
	if cl := h.cluster(t, "production"); aws.ToString(cl.Status) != "ACTIVE" || ecsTags(cl)[shared.TagOwnerUID] != "" {
		t.Errorf("the orphaned cluster is %s with tags %v", aws.ToString(cl.Status), ecsTags(cl))
	}

	// A cluster of the same name that no object owns is refused, and left alone.
	if _, err := h.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("foreign")}); err != nil {
		t.Fatal(err)
	}
	foreign := &v1alpha1.ECSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "foreign"}}
	foreign.Spec.ProviderRef.Name = "production-aws"
	foreign.Spec.DeletionPolicy = shared.DeletionPolicyDelete
	kubetest.Create(t, h.c, foreign)
	kubetest.WaitCondition(t, h.c, foreign, "Stalled", "True", condition.ReasonAlreadyExists)
	kubetest.Delete(t, h.c, foreign)
	if got := aws.ToString(h.cluster(t, "foreign").Status); got != "ACTIVE" {
		t.Errorf("the cluster no object owned is %s, want ACTIVE", got)
	}

	// A strategy naming a provider the cluster lacks is refused at admission.
	bad := &v1alpha1.ECSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "bad"}}
	bad.Spec.ProviderRef.Name = "production-aws"
	bad.Spec.DefaultCapacityProviderStrategy = []v1alpha1.ECSCapacityProviderStrategyItem{{CapacityProvider: "FARGATE_SPOT", Weight: 1}}
	kubetest.MustRefuse(t, h.c, bad, "must be one of capacityProviders")
	badNamespace := &v1alpha1.ECSCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "bad-namespace"}}
	badNamespace.Spec.ProviderRef.Name = "production-aws"
	badNamespace.Spec.ServiceConnectDefaults = &v1alpha1.ECSServiceConnectDefaults{Namespace: "not a namespace"}
	kubetest.MustRefuse(t, h.c, badNamespace, "Cloud Map namespace name")
}

// cluster describes the cluster name with its settings and tags.
func (h *harness) cluster(t testing.TB, name string) types.Cluster {
	t.Helper()
	out, err := h.ecs.DescribeClusters(context.Background(), &ecs.DescribeClustersInput{Clusters: []string{name},
		Include: []types.ClusterField{types.ClusterFieldSettings, types.ClusterFieldTags}})
	if err != nil || len(out.Clusters) != 1 {
		t.Fatalf("describe cluster %s: %+v, %v", name, out, err)
	}
	return out.Clusters[0]
}

// insightsOf returns the cluster's Container Insights setting.
func insightsOf(cl types.Cluster) string {
	for _, s := range cl.Settings {
		if s.Name == types.ClusterSettingNameContainerInsights {
			return aws.ToString(s.Value)
		}
	}
	return ""
}

// strategyOf returns the cluster's default strategy as provider/weight/base strings.
func strategyOf(cl types.Cluster) []string {
	var out []string
	for _, item := range cl.DefaultCapacityProviderStrategy {
		out = append(out, aws.ToString(item.CapacityProvider)+"/"+itoa(item.Weight)+"/"+itoa(item.Base))
	}
	return out
}

// itoa formats n in decimal.
func itoa(n int32) string { return strconv.Itoa(int(n)) }

// sameSet reports whether got holds exactly want, in any order.
func sameSet(got []string, want ...string) bool {
	got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	return slices.Equal(got, want)
}

// ecsTags returns an ECS cluster's tags as a map.
func ecsTags(cl types.Cluster) map[string]string {
	tags := map[string]string{}
	for _, tag := range cl.Tags {
		tags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return tags
}
