package iampolicy

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the policy's non-default versions, then the policy (IAM refuses to delete a
// policy with other versions). It detaches nothing: a policy still attached to a role, user or
// group is not deleted, and the deletion waits (DeleteConflict) until whoever attached it
// detaches it, since detaching would silently take permissions away from another object.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.IAMPolicy, obs managed.Observation[State]) error {
	pol := obs.State.Policy
	arn := aws.ToString(pol.Arn)
	if n := aws.ToInt32(pol.AttachmentCount); n > 0 {
		return managed.Waiting(condition.ReasonDeleteConflict, "policy %s is attached to %d roles, users or groups: it is deleted once they are "+
			"detached from it (the operator detaches nothing it did not attach)", arn, n)
	}
	versions, err := d.versions(ctx, arn)
	if err != nil {
		return err
	}
	for _, v := range versions {
		if v.IsDefaultVersion {
			continue
		}
		_, err := d.api.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: aws.String(arn), VersionId: v.VersionId})
		if err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "delete version %s of policy %s", aws.ToString(v.VersionId), arn)
		}
	}
	_, err = d.api.DeletePolicy(ctx, &iam.DeletePolicyInput{PolicyArn: aws.String(arn)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete policy %s", arn)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the policy, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.IAMPolicy, obs managed.Observation[State]) error {
	arn := obs.State.Policy.Arn
	_, err := d.api.UntagPolicy(ctx, &iam.UntagPolicyInput{PolicyArn: arn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of policy %s", aws.ToString(arn))
}
