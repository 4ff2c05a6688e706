// Package ecstaskdefinition manages ECS task definition families for the ECSTaskDefinition
// kind. Task definitions are immutable revisions: a spec that differs from the family's latest
// revision registers a new one, and older revisions the object registered are deregistered once
// no ECSService of the namespace deploys them.
package ecstaskdefinition

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ECSTaskDefinition kind to the engine.
func Kind() managed.Kind[*v1alpha1.ECSTaskDefinition, State] {
	return managed.Kind[*v1alpha1.ECSTaskDefinition, State]{
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.ECSTaskDefinition) managed.Driver[*v1alpha1.ECSTaskDefinition, State] {
			return &driver{api: provider.Client(s, "ecs", func(c aws.Config) *ecs.Client { return ecs.NewFromConfig(c) }), kube: kube}
		},
		References: []managed.Ref[*v1alpha1.ECSTaskDefinition]{
			managed.One(targets.IAMRole, "spec.taskRoleRef", func(t *v1alpha1.ECSTaskDefinition) (*shared.Reference, *string) {
				return t.Spec.TaskRoleRef, &t.Spec.TaskRoleARN
			}),
			managed.One(targets.IAMRole, "spec.executionRoleRef", func(t *v1alpha1.ECSTaskDefinition) (*shared.Reference, *string) {
				return t.Spec.ExecutionRoleRef, &t.Spec.ExecutionRoleARN
			}),
			managed.Each(targets.ECRRepository, "spec.containers[%d].repositoryRef", func(t *v1alpha1.ECSTaskDefinition) []managed.Slot {
				slots := make([]managed.Slot, len(t.Spec.Containers))
				for i := range t.Spec.Containers {
					c := &t.Spec.Containers[i]
					slots[i] = managed.Slot{Ref: c.RepositoryRef, ID: &c.Image}
				}
				return slots
			}),
			{Target: targets.SecretsManagerSecret, Sites: secretSites},
		},
		Guard: guard,
	}
}

// secretSites are the secretRef fields of every container's secrets, each resolving to the
// secret's ARN in the secret's valueFrom.
func secretSites(t *v1alpha1.ECSTaskDefinition) []managed.Site {
	var sites []managed.Site
	for i := range t.Spec.Containers {
		for j := range t.Spec.Containers[i].Secrets {
			s := &t.Spec.Containers[i].Secrets[j]
			if s.SecretRef == nil {
				continue
			}
			sites = append(sites, managed.Site{Field: fmt.Sprintf("spec.containers[%d].secrets[%d].secretRef", i, j), Name: s.SecretRef.Name,
				Set: func(ids []string) { s.ValueFrom = ids[0] }})
		}
	}
	return sites
}

// guard refuses, before any AWS call, a task or execution role the namespace may not pass to
// ECS (the pass-role rule of the tenancy guardrails): only roles the namespace's own IAMRole
// objects made, or roles the administrator's rules allow.
func guard(ctx context.Context, t *v1alpha1.ECSTaskDefinition, g managed.Guardrails) error {
	return g.CheckPassedRoles(ctx,
		managed.PassedRole{Field: "spec.taskRoleARN", ARN: t.Spec.TaskRoleARN},
		managed.PassedRole{Field: "spec.executionRoleARN", ARN: t.Spec.ExecutionRoleARN})
}

// driver manages one provider's task definition families.
type driver struct {
	api *ecs.Client
	// kube reads the namespace's ECSServices, to learn which older revisions are still
	// deployed.
	kube client.Reader
}

// family returns the task definition family: the spec's, else the object's name.
func family(t *v1alpha1.ECSTaskDefinition) string {
	if t.Spec.Family != "" {
		return t.Spec.Family
	}
	return t.Name
}
