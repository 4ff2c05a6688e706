package eksaccessentry

import (
	"cmp"
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	tokens "github.com/runner-codes/infra-operator/operators/compute/internal/token"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the entry of the spec's principal, type, groups and username with the desired
// tags (ownership included) and a token from e's UID, records the principal's ARN as its
// identifier, then associates the spec's access policies. A ResourceInUseException means an
// entry of the principal exists: made by an earlier attempt whose answer was lost, which
// Observe claims, or by someone else, which Observe refuses.
func (d *driver) Create(ctx context.Context, e *v1alpha1.EKSAccessEntry, req managed.Request) error {
	name, arn := cluster(e), e.Spec.PrincipalARN
	replaced := ""
	if id := managed.ExternalName(e); id != "" {
		// The entry this object made went outside the operator: a new token (from the gone
		// entry's ARN, unique to each entry EKS makes), so that EKS does not answer with it.
		replaced = cmp.Or(e.Status.AccessEntryARN, id)
	}
	in := &eks.CreateAccessEntryInput{ClusterName: aws.String(name), PrincipalArn: aws.String(arn), Type: aws.String(entryType(e)),
		KubernetesGroups: e.Spec.KubernetesGroups, Tags: req.Tags, ClientRequestToken: aws.String(tokens.Replacing(string(e.GetUID()), replaced))}
	if e.Spec.Username != "" {
		in.Username = aws.String(e.Spec.Username)
	}
	out, err := d.api.CreateAccessEntry(ctx, in)
	if awserr.Code(err) == "ResourceInUseException" {
		return nil
	}
	if err != nil {
		return managed.Wrap(err, "create the access entry of %s in EKS cluster %s", arn, name)
	}
	managed.SetExternalName(e, arn)
	if out.AccessEntry != nil {
		fillStatus(e, name, out.AccessEntry)
	}
	// A new entry has no access policies: associate the spec's now rather than at the next
	// observation. One that fails is planned again by that observation.
	var associations managed.Plan
	d.planPolicies(&associations, e, name, arn, nil)
	return associations.Apply(ctx)
}
