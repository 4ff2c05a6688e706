// Package ekspodidentityassociation manages EKS Pod Identity associations for the
// EKSPodIdentityAssociation kind: the pods of a cluster that run as one Kubernetes service
// account get an IAM role's credentials. AWS names an association by an id it chooses, and a
// service account has at most one: the create carries a token from the object's UID, the id is
// recorded the moment AWS answers, and a lost answer is found again by listing the cluster's
// associations of the namespace and service account and reading their ownership tags.
package ekspodidentityassociation

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/compute/internal/eksparts"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the EKSPodIdentityAssociation kind to the engine.
func Kind() managed.Kind[*v1alpha1.EKSPodIdentityAssociation, State] {
	return managed.Kind[*v1alpha1.EKSPodIdentityAssociation, State]{
		Guard: guard,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.EKSPodIdentityAssociation) managed.Driver[*v1alpha1.EKSPodIdentityAssociation, State] {
			return &driver{api: provider.Client(s, "eks", func(c aws.Config) *eks.Client { return eks.NewFromConfig(c) })}
		},
		References: []managed.Ref[*v1alpha1.EKSPodIdentityAssociation]{
			// The association writes into the cluster: an EKSCluster that only observes its
			// cluster makes it wait (ReferenceObserveOnly).
			managed.One(targets.EKSCluster, "spec.clusterRef", func(a *v1alpha1.EKSPodIdentityAssociation) (*shared.Reference, *string) {
				return a.Spec.ClusterRef, &a.Spec.ClusterName
			}).Writing(),
			managed.One(targets.IAMRole, "spec.roleRef", func(a *v1alpha1.EKSPodIdentityAssociation) (*shared.Reference, *string) {
				return a.Spec.RoleRef, &a.Spec.RoleARN
			}),
		},
	}
}

// guard refuses, before any AWS call, a role the namespace may not pass to EKS Pod Identity:
// only roles its own IAMRole objects made (a roleRef) and those the administrator allows are
// passable.
func guard(ctx context.Context, a *v1alpha1.EKSPodIdentityAssociation, g managed.Guardrails) error {
	return g.CheckPassedRoles(ctx, managed.PassedRole{Field: "spec.roleARN", ARN: a.Spec.RoleARN})
}

// api is the part of the EKS API the driver uses.
type api interface {
	CreatePodIdentityAssociation(ctx context.Context, in *eks.CreatePodIdentityAssociationInput, opts ...func(*eks.Options)) (*eks.CreatePodIdentityAssociationOutput, error)
	DescribePodIdentityAssociation(ctx context.Context, in *eks.DescribePodIdentityAssociationInput, opts ...func(*eks.Options)) (*eks.DescribePodIdentityAssociationOutput, error)
	UpdatePodIdentityAssociation(ctx context.Context, in *eks.UpdatePodIdentityAssociationInput, opts ...func(*eks.Options)) (*eks.UpdatePodIdentityAssociationOutput, error)
	DeletePodIdentityAssociation(ctx context.Context, in *eks.DeletePodIdentityAssociationInput, opts ...func(*eks.Options)) (*eks.DeletePodIdentityAssociationOutput, error)
	eks.ListPodIdentityAssociationsAPIClient
	eksparts.TagAPI
	eksparts.ClusterAPI
}

var _ api = (*eks.Client)(nil)

// driver manages one provider's Pod Identity associations.
type driver struct {
	// api is the provider's EKS client.
	api api
}

// cluster returns the name of a's cluster: the spec's (resolved from clusterRef), or while a is
// deleted (references are not resolved then) the recorded one.
func cluster(a *v1alpha1.EKSPodIdentityAssociation) string {
	if a.Spec.ClusterName != "" {
		return a.Spec.ClusterName
	}
	return a.Status.ClusterName
}
