package ekspodidentityassociation

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/compute/internal/eksparts"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about an association.
type State struct {
	// Association is DescribePodIdentityAssociation's answer, its tags included.
	Association *types.PodIdentityAssociation
}

// Observe reads the association by its recorded id or, before one is recorded, the
// association of the spec's namespace and service account (see find), claims it
// (managed.Claim: one tagged as this object's, or made by a create whose answer was lost),
// fills the status and plans its tags and its role, each shown with AWS's value and the
// spec's. In a cluster named by name, an association is created, or one this object did not
// make adopted, only when the cluster is the namespace's own (eksparts.CheckClusterOwned,
// eksparts.CheckAdopted).
func (d *driver) Observe(ctx context.Context, a *v1alpha1.EKSPodIdentityAssociation, req managed.Request) (managed.Observation[State], error) {
	name := cluster(a)
	if name == "" {
		// Being deleted before its references were ever resolved: nothing to find.
		return managed.Observation[State]{}, nil
	}
	assoc, err := d.find(ctx, a, name)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if assoc == nil {
		if req.Deleting || a.Spec.ClusterRef != nil {
			return managed.Observation[State]{}, nil
		}
		return managed.Observation[State]{}, eksparts.CheckClusterOwned(ctx, d.api, a, name)
	}
	if leave, err := eksparts.CheckAdopted(ctx, d.api, a, name, a.Spec.ClusterRef != nil, assoc.Tags, req.Deleting); err != nil || leave {
		return managed.Observation[State]{}, err
	}
	id := aws.ToString(assoc.AssociationId)
	if err := managed.Claim(a, "EKS Pod Identity association", id, assoc.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(a, name, assoc)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Association: assoc}, Tags: assoc.Tags}
	if req.Deleting {
		return obs, nil
	}
	if ns, sa := aws.ToString(assoc.Namespace), aws.ToString(assoc.ServiceAccount); ns != a.Spec.Namespace || sa != a.Spec.ServiceAccount {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "Pod Identity association %s of EKS cluster %s is for the service account %s/%s, "+
			"not the spec's %s/%s; an association's service account cannot change: set spec.namespace and spec.serviceAccount to %s and %s",
			id, name, ns, sa, a.Spec.Namespace, a.Spec.ServiceAccount, ns, sa)
		return obs, nil
	}
	eksparts.PlanTags(&obs.Changes, d.api, "tags", aws.ToString(assoc.AssociationArn), req.Tags, assoc.Tags)
	if have, want := aws.ToString(assoc.RoleArn), a.Spec.RoleARN; have != want {
		obs.Changes.AddValue("roleARN", have, want, func(ctx context.Context) error {
			_, err := d.api.UpdatePodIdentityAssociation(ctx, &eks.UpdatePodIdentityAssociationInput{ClusterName: aws.String(name),
				AssociationId: aws.String(id), RoleArn: aws.String(want)})
			return managed.Wrap(err, "update the role of Pod Identity association %s of EKS cluster %s", id, name)
		})
	}
	return obs, nil
}

// find returns the association with the recorded id or, before one is recorded, the one of the
// spec's namespace and service account (a service account has at most one), which a create
// whose answer was lost may have made: nil when there is none.
func (d *driver) find(ctx context.Context, a *v1alpha1.EKSPodIdentityAssociation, name string) (*types.PodIdentityAssociation, error) {
	if id := managed.ExternalName(a); id != "" {
		return d.describe(ctx, name, id)
	}
	out, err := d.api.ListPodIdentityAssociations(ctx, &eks.ListPodIdentityAssociationsInput{ClusterName: aws.String(name),
		Namespace: aws.String(a.Spec.Namespace), ServiceAccount: aws.String(a.Spec.ServiceAccount)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, managed.Wrap(err, "list the Pod Identity associations of %s/%s in EKS cluster %s", a.Spec.Namespace, a.Spec.ServiceAccount, name)
	}
	for _, s := range out.Associations {
		if aws.ToString(s.Namespace) == a.Spec.Namespace && aws.ToString(s.ServiceAccount) == a.Spec.ServiceAccount {
			return d.describe(ctx, name, aws.ToString(s.AssociationId))
		}
	}
	return nil, nil
}

// describe returns association id of cluster name, its tags included, or nil when it is gone.
func (d *driver) describe(ctx context.Context, name, id string) (*types.PodIdentityAssociation, error) {
	out, err := d.api.DescribePodIdentityAssociation(ctx, &eks.DescribePodIdentityAssociationInput{ClusterName: aws.String(name), AssociationId: aws.String(id)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, managed.Wrap(err, "describe Pod Identity association %s of EKS cluster %s", id, name)
	}
	return out.Association, nil
}

// fillStatus copies what the status shows of the association of cluster from AWS's answer.
func fillStatus(a *v1alpha1.EKSPodIdentityAssociation, cluster string, assoc *types.PodIdentityAssociation) {
	s := &a.Status
	s.ClusterName, s.AssociationID, s.AssociationARN = cluster, aws.ToString(assoc.AssociationId), aws.ToString(assoc.AssociationArn)
	s.RoleARN = aws.ToString(assoc.RoleArn)
}
