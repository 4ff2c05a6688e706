package eks

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// podIdentity is one EKS Pod Identity association: the IAM role the pods of a service account in
// a namespace get credentials for. Its settings are replaced, never changed in place.
type podIdentity struct {
	token string                       // the ClientRequestToken of the request that created it
	cfg   types.PodIdentityAssociation // as described, but for tags
}

// newAssociationID returns the id of a new association: a- and 17 lower-case letters and digits.
func newAssociationID() string { return "a-" + core.LowerAlnumID(17) }

// podRoles checks the IAM roles of an association, each only for the form of its ARN: the role
// its pods assume, and the role in another account they then assume, when there is one.
func podRoles(role, target *string) error {
	if err := checkRole(aws.ToString(role)); err != nil {
		return err
	}
	if target != nil {
		return checkRole(*target)
	}
	return nil
}

// describePod returns the association as DescribePodIdentityAssociation shows it.
func (r *region) describePod(p *podIdentity) *types.PodIdentityAssociation {
	out := p.cfg
	out.Tags = r.tags.Map(aws.ToString(p.cfg.AssociationArn))
	return &out
}

// inPod runs f, holding the backend's mutex, on the association a request names by id in the
// cluster it names; or answers the error EKS gives.
func inPod[O any](b *Backend, call *core.Call, name, id *string, f func(r *region, c *cluster, p *podIdentity) (*O, error)) (*O, error) {
	return inCluster(b, call, name, func(r *region, c *cluster) (*O, error) {
		p := c.pods[aws.ToString(id)]
		if p == nil {
			return nil, notFound("Association not found: %s", aws.ToString(id))
		}
		return f(r, c, p)
	})
}

// createPodIdentityAssociation creates the association of a namespace's service account, of
// which a cluster has one at most: ResourceInUseException names the one there is, unless the
// request repeats the one that created it with the same client request token.
func (b *Backend) createPodIdentityAssociation(call *core.Call, in *eks.CreatePodIdentityAssociationInput) (*eks.CreatePodIdentityAssociationOutput, error) {
	namespace, account := aws.ToString(in.Namespace), aws.ToString(in.ServiceAccount)
	if namespace == "" || account == "" {
		return nil, invalidParameter("namespace and serviceAccount are required")
	}
	if err := podRoles(in.RoleArn, in.TargetRoleArn); err != nil {
		return nil, err
	}
	return inCluster(b, call, in.ClusterName, func(r *region, c *cluster) (*eks.CreatePodIdentityAssociationOutput, error) {
		token := aws.ToString(in.ClientRequestToken)
		for _, id := range core.SortedKeys(c.pods) {
			p := c.pods[id]
			if aws.ToString(p.cfg.Namespace) != namespace || aws.ToString(p.cfg.ServiceAccount) != account {
				continue
			}
			if p.token != "" && p.token == token {
				return &eks.CreatePodIdentityAssociationOutput{Association: r.describePod(p)}, nil
			}
			return nil, inUse("Association already exists: %s", id)
		}
		id := newAssociationID()
		arn := r.scope.ARN("eks", "podidentityassociation/"+c.name+"/"+id)
		if err := r.tags.Merge(in.Tags, arn); err != nil {
			return nil, asInvalidParameter(err)
		}
		cfg := types.PodIdentityAssociation{AssociationId: aws.String(id), AssociationArn: aws.String(arn), ClusterName: aws.String(c.name),
			Namespace: aws.String(namespace), ServiceAccount: aws.String(account), RoleArn: in.RoleArn,
			DisableSessionTags: aws.Bool(aws.ToBool(in.DisableSessionTags)), Policy: in.Policy,
			CreatedAt: aws.Time(call.Now), ModifiedAt: aws.Time(call.Now)}
		setTarget(&cfg, in.TargetRoleArn)
		p := &podIdentity{token: token, cfg: cfg}
		c.pods[id] = p
		return &eks.CreatePodIdentityAssociationOutput{Association: r.describePod(p)}, nil
	})
}

// setTarget sets the role in another account an association's pods assume, with the external ID
// EKS makes for the target role's trust policy, or clears both when target is empty.
func setTarget(cfg *types.PodIdentityAssociation, target *string) {
	if aws.ToString(target) == "" {
		cfg.TargetRoleArn, cfg.ExternalId = nil, nil
		return
	}
	if aws.ToString(cfg.TargetRoleArn) != *target || cfg.ExternalId == nil {
		cfg.ExternalId = aws.String(core.NewUUID())
	}
	cfg.TargetRoleArn = aws.String(*target)
}

func (b *Backend) describePodIdentityAssociation(call *core.Call, in *eks.DescribePodIdentityAssociationInput) (*eks.DescribePodIdentityAssociationOutput, error) {
	return inPod(b, call, in.ClusterName, in.AssociationId, func(r *region, _ *cluster, p *podIdentity) (*eks.DescribePodIdentityAssociationOutput, error) {
		return &eks.DescribePodIdentityAssociationOutput{Association: r.describePod(p)}, nil
	})
}

// updatePodIdentityAssociation changes the settings of an association the request gives: its
// role, target role, session policy and session tags. Its namespace and service account stay.
func (b *Backend) updatePodIdentityAssociation(call *core.Call, in *eks.UpdatePodIdentityAssociationInput) (*eks.UpdatePodIdentityAssociationOutput, error) {
	if in.RoleArn != nil {
		if err := podRoles(in.RoleArn, nil); err != nil {
			return nil, err
		}
	}
	if aws.ToString(in.TargetRoleArn) != "" {
		if err := checkRole(*in.TargetRoleArn); err != nil {
			return nil, err
		}
	}
	return inPod(b, call, in.ClusterName, in.AssociationId, func(r *region, _ *cluster, p *podIdentity) (*eks.UpdatePodIdentityAssociationOutput, error) {
		next := p.cfg
		if in.RoleArn != nil {
			next.RoleArn = in.RoleArn
		}
		if in.TargetRoleArn != nil {
			setTarget(&next, in.TargetRoleArn)
		}
		if in.Policy != nil {
			next.Policy = in.Policy
		}
		if in.DisableSessionTags != nil {
			next.DisableSessionTags = aws.Bool(*in.DisableSessionTags)
		}
		next.ModifiedAt = aws.Time(call.Now)
		p.cfg = next
		return &eks.UpdatePodIdentityAssociationOutput{Association: r.describePod(p)}, nil
	})
}

// deletePodIdentityAssociation deletes an association and its tags at once, answering it as it
// was.
func (b *Backend) deletePodIdentityAssociation(call *core.Call, in *eks.DeletePodIdentityAssociationInput) (*eks.DeletePodIdentityAssociationOutput, error) {
	return inPod(b, call, in.ClusterName, in.AssociationId, func(r *region, c *cluster, p *podIdentity) (*eks.DeletePodIdentityAssociationOutput, error) {
		out := r.describePod(p)
		delete(c.pods, aws.ToString(p.cfg.AssociationId))
		r.tags.Delete(aws.ToString(p.cfg.AssociationArn))
		return &eks.DeletePodIdentityAssociationOutput{Association: out}, nil
	})
}

// listPodIdentityAssociations answers a page of summaries of the cluster's associations, by id,
// of those in the namespace and for the service account the request names when it does.
func (b *Backend) listPodIdentityAssociations(call *core.Call, in *eks.ListPodIdentityAssociationsInput) (*eks.ListPodIdentityAssociationsOutput, error) {
	return inCluster(b, call, in.ClusterName, func(_ *region, c *cluster) (*eks.ListPodIdentityAssociationsOutput, error) {
		var ids []string
		for _, id := range core.SortedKeys(c.pods) {
			cfg := c.pods[id].cfg
			if (in.Namespace == nil || *in.Namespace == aws.ToString(cfg.Namespace)) && (in.ServiceAccount == nil || *in.ServiceAccount == aws.ToString(cfg.ServiceAccount)) {
				ids = append(ids, id)
			}
		}
		ids, next, err := page(ids, in.NextToken, in.MaxResults)
		if err != nil {
			return nil, err
		}
		out := &eks.ListPodIdentityAssociationsOutput{NextToken: next, Associations: make([]types.PodIdentityAssociationSummary, 0, len(ids))}
		for _, id := range ids {
			cfg := c.pods[id].cfg
			out.Associations = append(out.Associations, types.PodIdentityAssociationSummary{AssociationId: cfg.AssociationId,
				AssociationArn: cfg.AssociationArn, ClusterName: cfg.ClusterName, Namespace: cfg.Namespace, ServiceAccount: cfg.ServiceAccount, OwnerArn: cfg.OwnerArn})
		}
		return out, nil
	})
}
