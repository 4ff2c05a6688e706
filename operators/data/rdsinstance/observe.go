package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdscreation"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdsgroupscope"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// RDS instance states the driver acts on.
const (
	statusAvailable = "available"
	statusDeleting  = "deleting"
)

// State is what AWS said about a DB instance.
type State struct {
	// Instance is DescribeDBInstances' answer, its tags included; nil when only the DB subnet
	// group the operator made is left.
	Instance *types.DBInstance
	// SubnetGroup is the DB subnet group the operator made for the instance, nil when the spec
	// names one (or none) or AWS does not have it.
	SubnetGroup *types.DBSubnetGroup
}

// Observe refuses a dbParameterGroupRef that names a group of scope Cluster (see
// rdsgroupscope), then reads the instance (its tags come along) from the provider's listing at
// a periodic sync of a recorded instance, otherwise with one DescribeDBInstances call, the DB subnet
// group the operator made for it with its tags (DescribeDBSubnetGroups, ListTagsForResource)
// when the spec gives subnets, and the password Secret; fills the status and plans what
// differs from the spec: the tags with their own calls, the owned subnet group's subnets and
// tags (see planSubnetGroup), then one ModifyDBInstance (see planModify). An instance that is
// not available (creating, backing-up, modifying, upgrading, ...) is reported busy and not
// ready: RDS refuses most changes until it is available again. While the object is deleting,
// the subnet group the operator made is reported once the instance is gone, so that Delete
// removes it; a group of its name that this object did not make is never reported.
func (d *driver) Observe(ctx context.Context, i *v1alpha1.RDSInstance, req managed.Request) (managed.Observation[State], error) {
	if !req.Deleting {
		if err := rdsgroupscope.Check(ctx, d.kube, i.Namespace, "spec.dbParameterGroupRef", i.Spec.DBParameterGroupRef, v1alpha1.ParameterGroupScopeInstance); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	id := identifier(i)
	inst, err := d.describe(ctx, i, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if inst == nil {
		if req.Deleting {
			return d.leftSubnetGroup(ctx, i)
		}
		return managed.Observation[State]{}, nil
	}
	tags := rdstags.Map(inst.TagList)
	if err := managed.Claim(i, "RDS DB instance", id, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(i, inst)
	status := aws.ToString(inst.DBInstanceStatus)
	obs := managed.Observation[State]{Exists: true, State: &State{Instance: inst}, Tags: tags, Ready: status == statusAvailable, Busy: status != statusAvailable}
	if !obs.Ready {
		obs.Message = "DB instance is " + status
	}
	if status == statusDeleting || req.Deleting {
		// Nothing is compared for an instance on its way out, and a missing password Secret
		// must not hold up its deletion.
		return obs, nil
	}
	obs.Conflict = createdAsSpecified(&i.Spec, inst)
	group, groupTags, err := d.ownedSubnetGroup(ctx, i)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	obs.State.SubnetGroup = group
	pw, err := d.password(ctx, i)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if i.Status.MasterUserPasswordVersion == "" {
		// An adopted instance (or one whose create was interrupted before its status was
		// written) keeps its password: only a later change of the Secret is applied.
		i.Status.MasterUserPasswordVersion = pw.Version
	}
	rdstags.Plan(&obs.Changes, d.api, "DB instance", aws.ToString(inst.DBInstanceArn), req.Tags, tags)
	if err := d.planSubnetGroup(&obs.Changes, i, group, groupTags, req.Tags); err != nil && obs.Conflict == nil {
		obs.Conflict = err
	}
	replica := d.planPromotion(&obs.Changes, i, inst)
	if replica && i.Spec.ReplicaSourceIdentifier == "" {
		// The promotion comes first; the next pass compares the rest.
		return obs, nil
	}
	d.planModify(&obs.Changes, i, inst, pw, replica)
	return obs, nil
}

// leftSubnetGroup observes, for an object being deleted whose instance is gone, the DB subnet
// group the operator made for it: it exists (and is busy, so the engine looks again after
// Delete) while AWS has it and its ownership tags name this object.
func (d *driver) leftSubnetGroup(ctx context.Context, i *v1alpha1.RDSInstance) (managed.Observation[State], error) {
	group, tags, err := d.ownedSubnetGroup(ctx, i)
	if err != nil || group == nil || !managed.OwnedBy(i, tags) {
		return managed.Observation[State]{}, err
	}
	return managed.Observation[State]{Exists: true, Busy: true, State: &State{SubnetGroup: group}, Tags: tags,
		Message: "the DB subnet group made for the instance is left"}, nil
}

// createdAsSpecified refuses an instance whose settings that RDS accepts only at creation
// (engine, master user name, database name, encryption and its key) are not the spec's: an
// adopted instance, or an identifier taken over.
func createdAsSpecified(s *v1alpha1.RDSInstanceSpec, inst *types.DBInstance) error {
	return rdscreation.Check("DB instance "+aws.ToString(inst.DBInstanceIdentifier),
		rdscreation.Settings{Engine: s.Engine, MasterUsername: s.MasterUsername, DBNameField: "dbName", DBName: s.DBName,
			StorageEncrypted: aws.ToBool(s.StorageEncrypted), KMSKeyID: s.KMSKeyID},
		rdscreation.Settings{Engine: aws.ToString(inst.Engine), MasterUsername: aws.ToString(inst.MasterUsername), DBName: aws.ToString(inst.DBName),
			StorageEncrypted: aws.ToBool(inst.StorageEncrypted), KMSKeyID: aws.ToString(inst.KmsKeyId)})
}

// fillStatus copies what the status shows from AWS's description.
func fillStatus(i *v1alpha1.RDSInstance, inst *types.DBInstance) {
	i.Status.DBInstanceIdentifier = aws.ToString(inst.DBInstanceIdentifier)
	i.Status.DBInstanceStatus = aws.ToString(inst.DBInstanceStatus)
	i.Status.ARN = aws.ToString(inst.DBInstanceArn)
	i.Status.Endpoint, i.Status.Port = "", 0
	if inst.Endpoint != nil {
		i.Status.Endpoint, i.Status.Port = aws.ToString(inst.Endpoint.Address), aws.ToInt32(inst.Endpoint.Port)
	}
	i.Status.DBSubnetGroupName = aws.ToString(subnetGroup(inst))
	i.Status.PendingModifications = pendingModifications(inst)
	i.Status.ParameterApplyStatus = ""
	if len(inst.DBParameterGroups) > 0 {
		i.Status.ParameterApplyStatus = aws.ToString(inst.DBParameterGroups[0].ParameterApplyStatus)
	}
	if i.Status.ParameterApplyStatus == "pending-reboot" {
		// The operator never reboots a database by itself: the change waits for the owner.
		i.Status.PendingModifications = append(i.Status.PendingModifications, "parameters (pending-reboot: reboot the instance to apply them)")
	}
}

// pendingModifications names the changes RDS has not applied yet, in the spec's terms.
func pendingModifications(inst *types.DBInstance) []string {
	var names []string
	if p := inst.PendingModifiedValues; p != nil {
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"dbInstanceClass", p.DBInstanceClass != nil}, {"engineVersion", p.EngineVersion != nil},
			{"allocatedStorage", p.AllocatedStorage != nil}, {"storageType", p.StorageType != nil},
			{"iops", p.Iops != nil}, {"storageThroughput", p.StorageThroughput != nil},
			{"multiAZ", p.MultiAZ != nil}, {"backupRetentionPeriod", p.BackupRetentionPeriod != nil},
			{"port", p.Port != nil}, {"dbSubnetGroupName", p.DBSubnetGroupName != nil},
			{"caCertificateIdentifier", p.CACertificateIdentifier != nil}, {"masterUserPassword", p.MasterUserPassword != nil},
		} {
			if f.set {
				names = append(names, f.name)
			}
		}
	}
	for _, g := range inst.OptionGroupMemberships {
		if aws.ToString(g.Status) == "pending-apply" {
			names = append(names, "optionGroupName")
		}
	}
	return names
}

// describe returns DB instance id as the listing holds it, when i records it and the listing
// has not served it yet, or else as DescribeDBInstances returns it; nil when it does not exist.
func (d *driver) describe(ctx context.Context, i *v1alpha1.RDSInstance, id string) (*types.DBInstance, error) {
	if managed.ExternalName(i) != "" {
		// A listing refused (credentials limited to some instances may not list them all)
		// leaves the direct read, which reports its own errors.
		if listed, ok, err := d.instances.Get(ctx, id); err == nil && ok {
			return &listed, nil
		}
	}
	out, err := d.api.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(id)})
	if awserr.IsNotFound(err) || (err == nil && len(out.DBInstances) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe DB instance %s: %w", id, err)
	}
	return &out.DBInstances[0], nil
}
