package ekspodidentityassociation

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/compute/internal/eksparts"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the association; one already gone is success.
func (d *driver) Delete(ctx context.Context, a *v1alpha1.EKSPodIdentityAssociation, obs managed.Observation[State]) error {
	id := obs.State.Association.AssociationId
	_, err := d.api.DeletePodIdentityAssociation(ctx, &eks.DeletePodIdentityAssociationInput{ClusterName: aws.String(cluster(a)), AssociationId: id})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete Pod Identity association %s of EKS cluster %s", aws.ToString(id), cluster(a))
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the association, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.EKSPodIdentityAssociation, obs managed.Observation[State]) error {
	return eksparts.Untag(ctx, d.api, aws.ToString(obs.State.Association.AssociationArn), managed.OwnershipTagKeys())
}
