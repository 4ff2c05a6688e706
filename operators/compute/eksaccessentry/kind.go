// Package eksaccessentry manages EKS access entries for the EKSAccessEntry kind: an IAM
// principal's Kubernetes identity in a cluster (username, groups) and the EKS access policies
// associated with it, as a set. AWS identifies an entry by its cluster and principal, so the
// principal's ARN is the entry's recorded identifier; the entry and its associations are
// available at once, with no lifecycle to wait for.
package eksaccessentry

import (
	"context"
	"fmt"
	"strings"

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

// Kind declares the EKSAccessEntry kind to the engine.
func Kind() managed.Kind[*v1alpha1.EKSAccessEntry, State] {
	return managed.Kind[*v1alpha1.EKSAccessEntry, State]{
		Validate: validate,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.EKSAccessEntry) managed.Driver[*v1alpha1.EKSAccessEntry, State] {
			return &driver{api: provider.Client(s, "eks", func(c aws.Config) *eks.Client { return eks.NewFromConfig(c) })}
		},
		References: []managed.Ref[*v1alpha1.EKSAccessEntry]{
			// The entry writes into the cluster: an EKSCluster that only observes its cluster
			// makes the entry wait (ReferenceObserveOnly).
			managed.One(targets.EKSCluster, "spec.clusterRef", func(e *v1alpha1.EKSAccessEntry) (*shared.Reference, *string) {
				return e.Spec.ClusterRef, &e.Spec.ClusterName
			}).Writing(),
			managed.One(targets.IAMRole, "spec.principalRef", func(e *v1alpha1.EKSAccessEntry) (*shared.Reference, *string) {
				return e.Spec.PrincipalRef, &e.Spec.PrincipalARN
			}),
		},
	}
}

// validate checks what admission cannot: each access policy is listed once, whether by name
// or by ARN.
func validate(e *v1alpha1.EKSAccessEntry) error {
	seen := map[string]bool{}
	for _, p := range e.Spec.AccessPolicies {
		name := policyName(p.Policy)
		if seen[name] {
			return fmt.Errorf("spec.accessPolicies lists the access policy %s twice (by name and by ARN): list it once", name)
		}
		seen[name] = true
	}
	return nil
}

// api is the part of the EKS API the driver uses.
type api interface {
	CreateAccessEntry(ctx context.Context, in *eks.CreateAccessEntryInput, opts ...func(*eks.Options)) (*eks.CreateAccessEntryOutput, error)
	DescribeAccessEntry(ctx context.Context, in *eks.DescribeAccessEntryInput, opts ...func(*eks.Options)) (*eks.DescribeAccessEntryOutput, error)
	UpdateAccessEntry(ctx context.Context, in *eks.UpdateAccessEntryInput, opts ...func(*eks.Options)) (*eks.UpdateAccessEntryOutput, error)
	DeleteAccessEntry(ctx context.Context, in *eks.DeleteAccessEntryInput, opts ...func(*eks.Options)) (*eks.DeleteAccessEntryOutput, error)
	AssociateAccessPolicy(ctx context.Context, in *eks.AssociateAccessPolicyInput, opts ...func(*eks.Options)) (*eks.AssociateAccessPolicyOutput, error)
	DisassociateAccessPolicy(ctx context.Context, in *eks.DisassociateAccessPolicyInput, opts ...func(*eks.Options)) (*eks.DisassociateAccessPolicyOutput, error)
	eks.ListAssociatedAccessPoliciesAPIClient
	eksparts.TagAPI
	eksparts.ClusterAPI
}

var _ api = (*eks.Client)(nil)

// driver manages one provider's access entries.
type driver struct {
	// api is the provider's EKS client.
	api api
}

// cluster returns the name of e's cluster: the spec's (resolved from clusterRef), or while e is
// deleted (references are not resolved then) the recorded one.
func cluster(e *v1alpha1.EKSAccessEntry) string {
	if e.Spec.ClusterName != "" {
		return e.Spec.ClusterName
	}
	return e.Status.ClusterName
}

// principal returns the ARN of e's principal: the recorded one, or the spec's (resolved from
// principalRef).
func principal(e *v1alpha1.EKSAccessEntry) string {
	if arn := managed.ExternalName(e); arn != "" {
		return arn
	}
	return e.Spec.PrincipalARN
}

// entryType returns the spec's entry type (unset is STANDARD).
func entryType(e *v1alpha1.EKSAccessEntry) string {
	if e.Spec.Type == "" {
		return "STANDARD"
	}
	return e.Spec.Type
}

// partition returns the AWS partition of an ARN ("aws" when arn is not one).
func partition(arn string) string {
	if parts := strings.SplitN(arn, ":", 3); len(parts) == 3 && parts[0] == "arn" && parts[1] != "" {
		return parts[1]
	}
	return "aws"
}
