package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Update applies what differs: the tags with their own calls, then one ModifyDBInstance with
// only the differing settings (and the password, when its Secret changed), applied now or in
// the maintenance window as spec.applyImmediately says. RDS applies the password, backups and
// deletion protection at once either way.
func (d *driver) Update(ctx context.Context, i *v1alpha1.RDSInstance, obs managed.Observation[State]) error {
	inst := obs.State.Instance
	id, arn := aws.ToString(inst.DBInstanceIdentifier), aws.ToString(inst.DBInstanceArn)
	if err := d.updateTags(ctx, arn, managed.DesiredTags(i, d.defaultTags), obs.State.Tags); err != nil {
		return err
	}
	in, diff := plan(&i.Spec, inst)
	pw, err := d.password(ctx, i)
	if err != nil {
		return err
	}
	if diff.Check("masterUserPassword", pw.version != i.Status.MasterUserPasswordVersion) {
		in.MasterUserPassword = aws.String(pw.value)
	}
	if len(diff) == 0 {
		return nil
	}
	in.DBInstanceIdentifier, in.ApplyImmediately = aws.String(id), aws.Bool(i.Spec.ApplyImmediately)
	if _, err := d.api.ModifyDBInstance(ctx, in); err != nil {
		if w := groupError(&i.Spec, err); w != nil {
			return w
		}
		return fmt.Errorf("modify DB instance %s (%s): %w", id, diff, err)
	}
	if in.MasterUserPassword != nil {
		i.Status.MasterUserPasswordVersion = pw.version
	}
	return nil
}

// updateTags adds, changes and removes tags so the instance carries exactly desired.
func (d *driver) updateTags(ctx context.Context, arn string, desired, observed map[string]string) error {
	set, remove := managed.TagChanges(desired, observed)
	if len(set) > 0 {
		if _, err := d.api.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: aws.String(arn), Tags: rdsTags(set)}); err != nil {
			return fmt.Errorf("tag DB instance %s: %w", arn, err)
		}
	}
	if len(remove) > 0 {
		if _, err := d.api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: remove}); err != nil {
			return fmt.Errorf("untag DB instance %s: %w", arn, err)
		}
	}
	return nil
}
