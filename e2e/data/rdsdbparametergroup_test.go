package data_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// groupParameters returns the parameters users set in a DB parameter group, "value method" by
// name.
func groupParameters(t *testing.T, c *rds.Client, group string) map[string]string {
	t.Helper()
	out, err := c.DescribeDBParameters(context.Background(), &rds.DescribeDBParametersInput{DBParameterGroupName: aws.String(group), Source: aws.String("user")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range out.Parameters {
		got[aws.ToString(p.ParameterName)] = aws.ToString(p.ParameterValue) + " " + string(p.ApplyMethod)
	}
	return got
}

// TestRDSDBParameterGroup applies examples/data/rdsdbparametergroup.yaml verbatim: the group is
// created with its parameters, each with the apply method its type allows (shared_buffers is
// static), and a sync costs three reads. A value changed outside the operator is put back; a
// parameter dropped from the spec returns to the engine's default. An RDSInstance naming the
// group by reference uses it, and reports pending-reboot after a static change until the
// instance reboots. A parameter RDS does not know is a condition with no crash, and deleting
// the group waits while an instance uses it.
func TestRDSDBParameterGroup(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	h.emu.Calls.Reset()
	h.applySeed("rdsdbparametergroup.yaml", "default")
	group := &v1alpha1.RDSDBParameterGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "production-postgres-tuned"}}
	group = waitFor(h, group, kubetest.Timeout, "Ready with its parameters", func(g *v1alpha1.RDSDBParameterGroup) bool {
		return g.Status.Ready && len(groupParameters(t, c, "production-postgres-tuned")) == 4
	})
	t.Logf("create: %d RDS calls %v", total(h.calls("RDS")), h.calls("RDS"))
	want := map[string]string{"log_min_duration_statement": "500 immediate", "work_mem": "16384 immediate", "shared_buffers": "262144 pending-reboot",
		"rds.force_ssl": "1 immediate"}
	if got := groupParameters(t, c, "production-postgres-tuned"); !maps.Equal(got, want) {
		t.Errorf("parameters %v, want %v", got, want)
	}
	if group.Status.Name != "production-postgres-tuned" || !strings.HasPrefix(group.Status.ARN, "arn:aws:rds:") {
		t.Errorf("status: %+v", group.Status)
	}

	// A steady sync reads three times and writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.env.Client, group, "looked at again", func() bool { return h.calls("RDS")["DescribeDBParameters"] > 0 })
	time.Sleep(300 * time.Millisecond)
	if calls := h.calls("RDS"); calls["ModifyDBParameterGroup"]+calls["ResetDBParameterGroup"] != 0 || total(calls) > 3 {
		t.Errorf("a steady sync made %v, want DescribeDBParameterGroups, ListTagsForResource and DescribeDBParameters only", calls)
	}

	// Drift is put back.
	if _, err := c.ModifyDBParameterGroup(ctx, &rds.ModifyDBParameterGroupInput{DBParameterGroupName: aws.String("production-postgres-tuned"),
		Parameters: []types.Parameter{{ParameterName: aws.String("work_mem"), ParameterValue: aws.String("4096"), ApplyMethod: types.ApplyMethodImmediate}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.env.Client, group, "work_mem put back", func() bool {
		return groupParameters(t, c, "production-postgres-tuned")["work_mem"] == "16384 immediate"
	})

	// A parameter dropped from the spec returns to the engine's default; a changed one is set.
	update(h, group, func(g *v1alpha1.RDSDBParameterGroup) {
		g.Spec.Parameters = slices.DeleteFunc(g.Spec.Parameters, func(p v1alpha1.DBParameter) bool { return p.Name == "log_min_duration_statement" })
		for i := range g.Spec.Parameters {
			if g.Spec.Parameters[i].Name == "work_mem" {
				g.Spec.Parameters[i].Value = "32768"
			}
		}
	})
	waitFor(h, group, kubetest.Timeout, "the new parameters", func(g *v1alpha1.RDSDBParameterGroup) bool {
		got := groupParameters(t, c, "production-postgres-tuned")
		_, dropped := got["log_min_duration_statement"]
		return g.Status.ObservedGeneration == g.Generation && !dropped && got["work_mem"] == "32768 immediate"
	})

	// An instance naming the group by reference uses it; a static change leaves it pending-reboot.
	h.secret("default", "tuned-password", "password", "tuned-Passw0rd")
	inst := rdsInstance("default", "tuned", "tuned-db", "tuned-password")
	inst.Spec.ProviderRef.Name, inst.Spec.EngineVersion = "production-aws", "14.7"
	inst.Spec.DBParameterGroupRef = &shared.Reference{Name: "production-postgres-tuned"}
	h.create(inst)
	inst = waitReady(h, inst)
	if d := describeInstance(t, c, "tuned-db"); aws.ToString(d.DBParameterGroups[0].DBParameterGroupName) != "production-postgres-tuned" {
		t.Fatalf("the instance's parameter groups: %+v", d.DBParameterGroups)
	}
	update(h, group, func(g *v1alpha1.RDSDBParameterGroup) {
		for i := range g.Spec.Parameters {
			if g.Spec.Parameters[i].Name == "shared_buffers" {
				g.Spec.Parameters[i].Value = "131072"
			}
		}
	})
	kubetest.ResyncUntil(t, h.env.Client, inst, "pending-reboot", func() bool {
		cur := &v1alpha1.RDSInstance{}
		if err := h.env.Client.Get(ctx, client.ObjectKeyFromObject(inst), cur); err != nil {
			t.Fatal(err)
		}
		return cur.Status.ParameterApplyStatus == "pending-reboot" && slices.ContainsFunc(cur.Status.PendingModifications, func(m string) bool { return strings.HasPrefix(m, "parameters") })
	})
	if _, err := c.RebootDBInstance(ctx, &rds.RebootDBInstanceInput{DBInstanceIdentifier: aws.String("tuned-db")}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.env.Client, inst, "in-sync after the reboot", func() bool {
		cur := &v1alpha1.RDSInstance{}
		if err := h.env.Client.Get(ctx, client.ObjectKeyFromObject(inst), cur); err != nil {
			t.Fatal(err)
		}
		return cur.Status.ParameterApplyStatus == "in-sync" && cur.Status.Ready
	})

	// Admission: the family cannot change; an instance takes a group by name or by reference.
	kubetest.MustRefuseUpdate(t, h.env.Client, group, func(g *v1alpha1.RDSDBParameterGroup) { g.Spec.Family = "postgres16" }, "family cannot change")
	both := rdsInstance("default", "both", "both-db", "tuned-password")
	both.Spec.DBParameterGroupName, both.Spec.DBParameterGroupRef = "default.postgres16", &shared.Reference{Name: "production-postgres-tuned"}
	h.mustRefuse(both, "at most one of dbParameterGroupName and dbParameterGroupRef")

	// A parameter RDS does not know: a condition, the rest untouched.
	bad := &v1alpha1.RDSDBParameterGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "bad-params"}}
	bad.Spec.ProviderRef.Name, bad.Spec.Family, bad.Spec.Description = "production-aws", "postgres16", "bad"
	bad.Spec.Parameters = []v1alpha1.DBParameter{{Name: "no_such_parameter", Value: "1"}}
	h.create(bad)
	waitCondition(h, bad, "Synced", "False", "AWSRejectedRequest")

	// The group waits while the instance uses it, and goes once the instance is gone.
	if err := h.env.Client.Delete(ctx, group); err != nil {
		t.Fatal(err)
	}
	waitFor(h, group, kubetest.Timeout, "refused while in use", func(g *v1alpha1.RDSDBParameterGroup) bool {
		return h.calls("RDS")["DeleteDBParameterGroup"] > 0
	})
	if _, err := c.DescribeDBParameterGroups(ctx, &rds.DescribeDBParameterGroupsInput{DBParameterGroupName: aws.String("production-postgres-tuned")}); err != nil {
		t.Fatalf("the group an instance uses was deleted: %v", err)
	}
	update(h, inst, func(i *v1alpha1.RDSInstance) { i.Spec.FinalSnapshot = &v1alpha1.RDSFinalSnapshot{Skip: true} })
	h.delete(inst)
	h.waitGone(inst)
	h.waitGone(group)
}
