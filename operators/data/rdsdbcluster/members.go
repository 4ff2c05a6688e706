package rdsdbcluster

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdsinsights"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// fieldCount is how a plan names a change of the number of instances.
const fieldCount = "instances.count"

// member is one of the cluster's instances that the operator names: <cluster>-<number>.
type member struct {
	number   int
	instance types.DBInstance
	writer   bool
}

// instanceName returns the identifier of the cluster's instance number n.
func instanceName(cluster string, n int) string {
	return cluster + "-" + strconv.Itoa(n)
}

// members returns the cluster's instances named <cluster>-<number>, by number; instances added
// to the cluster under other names are not the operator's and are left alone.
func members(cl *types.DBCluster, instances []types.DBInstance) map[int]member {
	id := aws.ToString(cl.DBClusterIdentifier)
	writers := map[string]bool{}
	for _, m := range cl.DBClusterMembers {
		writers[aws.ToString(m.DBInstanceIdentifier)] = aws.ToBool(m.IsClusterWriter)
	}
	out := map[int]member{}
	for _, inst := range instances {
		name := aws.ToString(inst.DBInstanceIdentifier)
		suffix, ok := strings.CutPrefix(name, id+"-")
		if n, err := strconv.Atoi(suffix); ok && err == nil && n > 0 && strconv.Itoa(n) == suffix {
			out[n] = member{number: n, instance: inst, writer: writers[name]}
		}
	}
	return out
}

// planInstances plans what makes the cluster's instances the spec's: the missing ones created
// (the lowest free numbers, so an instance deleted outside the operator is made again under its
// name) or the surplus deleted (the highest-numbered that are not the writer, and only those
// this object made), then, for each instance, its class, public access and Performance
// Insights (one ModifyDBInstance) and its tags. Nothing is added while an instance is being
// deleted: the count is compared again once it is gone. It reports whether every one of the
// spec's instances is available, and else why not.
func (d *driver) planInstances(changes *managed.Plan, c *v1alpha1.RDSDBCluster, cl *types.DBCluster, instances []types.DBInstance, tags map[string]string) (bool, string) {
	id, want := aws.ToString(cl.DBClusterIdentifier), int(c.Spec.Instances.Count)
	all := members(cl, instances)
	var live []member
	deleting := 0
	for _, n := range slices.Sorted(maps.Keys(all)) {
		if aws.ToString(all[n].instance.DBInstanceStatus) == statusDeleting {
			deleting++
			continue
		}
		live = append(live, all[n])
	}
	switch {
	case len(live) < want && deleting == 0:
		var add []int
		for n := 1; len(add) < want-len(live); n++ {
			if _, taken := all[n]; !taken {
				add = append(add, n)
			}
		}
		changes.AddValue(fieldCount, len(live), want, func(ctx context.Context) error { return d.createInstances(ctx, c, id, add, tags) })
	case len(live) > want:
		if remove := surplus(c, live, len(live)-want); len(remove) > 0 {
			changes.AddValue(fieldCount, len(live), want, func(ctx context.Context) error { return d.deleteInstances(ctx, remove) })
		}
	}
	ready, message := len(live) == want && deleting == 0, ""
	for _, m := range live {
		d.planInstance(changes, c, m.instance, tags)
		if status := aws.ToString(m.instance.DBInstanceStatus); status != statusAvailable {
			ready = false
			message = fmt.Sprintf("DB instance %s is %s", aws.ToString(m.instance.DBInstanceIdentifier), status)
		}
	}
	if message == "" && !ready {
		message = fmt.Sprintf("the cluster has %d of its %d DB instances", len(live), want)
	}
	return ready, message
}

// surplus returns the identifiers of up to n instances to delete when scaling down: the
// highest-numbered that are not the writer and that this object made (its ownership tags).
func surplus(c *v1alpha1.RDSDBCluster, live []member, n int) []string {
	var out []string
	for i := len(live) - 1; i >= 0 && len(out) < n; i-- {
		if m := live[i]; !m.writer && managed.OwnedBy(c, rdstags.Map(m.instance.TagList)) {
			out = append(out, aws.ToString(m.instance.DBInstanceIdentifier))
		}
	}
	return out
}

// createInstances creates the cluster's instances of the numbers given, with the spec's class,
// public access and Performance Insights and the cluster's tags (ownership included). A name
// taken by an instance outside the cluster is a wait, since nothing was created under it.
func (d *driver) createInstances(ctx context.Context, c *v1alpha1.RDSDBCluster, cluster string, numbers []int, tags map[string]string) error {
	s := &c.Spec.Instances
	for _, n := range numbers {
		name := instanceName(cluster, n)
		in := &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String(name), DBClusterIdentifier: aws.String(cluster),
			Engine: aws.String(c.Spec.Engine), DBInstanceClass: aws.String(s.InstanceClass), PubliclyAccessible: aws.Bool(s.PubliclyAccessible),
			PreferredMaintenanceWindow: optional(c.Spec.PreferredMaintenanceWindow), Tags: rdstags.List(tags)}
		in.EnablePerformanceInsights, in.PerformanceInsightsRetentionPeriod, in.PerformanceInsightsKMSKeyId = rdsinsights.Settings(s.PerformanceInsights)
		if _, err := d.api.CreateDBInstance(ctx, in); err != nil {
			if awserr.Code(err) == "DBInstanceAlreadyExists" {
				return managed.Waiting(condition.ReasonIdentifierTaken,
					"a DB instance named %s exists outside DB cluster %s; delete or rename it so that the cluster's instance %d can be made", name, cluster, n)
			}
			return fmt.Errorf("create DB instance %s of cluster %s: %w", name, cluster, err)
		}
	}
	return nil
}

// deleteInstances deletes the cluster's instances ids (their data stays in the cluster); one
// already gone or going is success.
func (d *driver) deleteInstances(ctx context.Context, ids []string) error {
	for _, id := range ids {
		_, err := d.api.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String(id)})
		if err != nil && !awserr.IsNotFound(err) && awserr.Code(err) != "InvalidDBInstanceState" {
			return fmt.Errorf("delete DB instance %s: %w", id, err)
		}
	}
	return nil
}

// planInstance plans one ModifyDBInstance with the instance's settings that differ from
// spec.instances (class, public access, Performance Insights), applied now or in the
// maintenance window as spec.applyImmediately says, and the instance's tags.
func (d *driver) planInstance(changes *managed.Plan, c *v1alpha1.RDSDBCluster, inst types.DBInstance, tags map[string]string) {
	s, id := &c.Spec.Instances, aws.ToString(inst.DBInstanceIdentifier)
	in := &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String(id), ApplyImmediately: aws.Bool(c.Spec.ApplyImmediately)}
	var fields []string
	class := aws.ToString(inst.DBInstanceClass)
	if p := inst.PendingModifiedValues; p != nil && p.DBInstanceClass != nil && !c.Spec.ApplyImmediately {
		class = *p.DBInstanceClass
	}
	if class != s.InstanceClass {
		in.DBInstanceClass, fields = aws.String(s.InstanceClass), append(fields, "instances.instanceClass")
	}
	if aws.ToBool(inst.PubliclyAccessible) != s.PubliclyAccessible {
		in.PubliclyAccessible, fields = aws.Bool(s.PubliclyAccessible), append(fields, "instances.publiclyAccessible")
	}
	if s.PerformanceInsights != nil && !rdsinsights.Same(s.PerformanceInsights, &inst) {
		in.EnablePerformanceInsights, in.PerformanceInsightsRetentionPeriod, in.PerformanceInsightsKMSKeyId = rdsinsights.Settings(s.PerformanceInsights)
		fields = append(fields, "instances.performanceInsights")
	}
	changes.AddFieldValues(fields, map[string]managed.Values{
		"instances.instanceClass":      managed.ValuesOf(class, s.InstanceClass),
		"instances.publiclyAccessible": managed.ValuesOf(aws.ToBool(inst.PubliclyAccessible), s.PubliclyAccessible),
	}, func(ctx context.Context) error {
		_, err := d.api.ModifyDBInstance(ctx, in)
		return managed.Wrap(err, "modify DB instance %s (%s)", id, strings.Join(fields, ", "))
	})
	rdstags.Plan(changes, d.api, "DB instance", aws.ToString(inst.DBInstanceArn), tags, rdstags.Map(inst.TagList))
}
