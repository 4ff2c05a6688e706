package eksaccessentry

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/compute/internal/eksparts"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the entry, which takes its access policy associations with it; one already
// gone is success.
func (d *driver) Delete(ctx context.Context, e *v1alpha1.EKSAccessEntry, obs managed.Observation[State]) error {
	entry := obs.State.Entry
	_, err := d.api.DeleteAccessEntry(ctx, &eks.DeleteAccessEntryInput{ClusterName: aws.String(cluster(e)), PrincipalArn: entry.PrincipalArn})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete access entry %s", aws.ToString(entry.AccessEntryArn))
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the entry, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.EKSAccessEntry, obs managed.Observation[State]) error {
	return eksparts.Untag(ctx, d.api, aws.ToString(obs.State.Entry.AccessEntryArn), managed.OwnershipTagKeys())
}
