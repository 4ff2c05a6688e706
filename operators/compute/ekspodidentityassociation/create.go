package ekspodidentityassociation

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	tokens "github.com/runner-codes/infra-operator/operators/compute/internal/token"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the association of the spec's service account and role with the desired tags
// (ownership included, so that a create whose answer is lost is found again as this object's)
// and a token from a's UID (a replacement of an association deleted outside the operator gets
// another), and records its id the moment AWS answers. A ResourceInUseException means the
// service account has an association: Observe finds it by listing, and claims or refuses it.
func (d *driver) Create(ctx context.Context, a *v1alpha1.EKSPodIdentityAssociation, req managed.Request) error {
	name := cluster(a)
	out, err := d.api.CreatePodIdentityAssociation(ctx, &eks.CreatePodIdentityAssociationInput{ClusterName: aws.String(name),
		Namespace: aws.String(a.Spec.Namespace), ServiceAccount: aws.String(a.Spec.ServiceAccount), RoleArn: aws.String(a.Spec.RoleARN),
		Tags: req.Tags, ClientRequestToken: aws.String(tokens.Replacing(string(a.GetUID()), managed.ExternalName(a)))})
	if awserr.Code(err) == "ResourceInUseException" {
		return nil
	}
	if err != nil {
		return managed.Wrap(err, "create the Pod Identity association of %s/%s in EKS cluster %s", a.Spec.Namespace, a.Spec.ServiceAccount, name)
	}
	if out.Association == nil || aws.ToString(out.Association.AssociationId) == "" {
		// Nothing to record: the next Observe finds the association by listing.
		return fmt.Errorf("create the Pod Identity association of %s/%s in EKS cluster %s: EKS answered without the association's id",
			a.Spec.Namespace, a.Spec.ServiceAccount, name)
	}
	managed.SetExternalName(a, aws.ToString(out.Association.AssociationId))
	fillStatus(a, name, out.Association)
	return nil
}
