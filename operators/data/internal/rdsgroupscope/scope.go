// Package rdsgroupscope checks that the RDSDBParameterGroup a reference names is of the scope
// the referring kind needs: a DB parameter group (scope Instance) for an RDSInstance, a DB
// cluster parameter group (scope Cluster) for an RDSDBCluster. RDS keeps the two apart, so a
// group of the other scope would only fail later, as a group RDS does not find.
package rdsgroupscope

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Check returns a terminal error when ref, the reference at the spec field field of an object of
// namespace, names an RDSDBParameterGroup whose scope is not want, and nil otherwise: when ref
// is nil, or when the group does not exist (the engine's references wait for it).
func Check(ctx context.Context, kube client.Reader, namespace, field string, ref *shared.Reference, want string) error {
	if ref == nil {
		return nil
	}
	g := &v1alpha1.RDSDBParameterGroup{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: namespace, Name: ref.Name}, g); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("read RDSDBParameterGroup %s/%s named by %s: %w", namespace, ref.Name, field, err)
	}
	scope := g.Spec.Scope
	if scope == "" {
		scope = v1alpha1.ParameterGroupScopeInstance
	}
	if scope != want {
		return managed.Terminal(condition.ReasonInvalidSpec, "%s names RDSDBParameterGroup %s, of scope %s, but needs a group of scope %s; "+
			"name a group of scope %s, or create one with spec.scope: %s", field, ref.Name, scope, want, want, want)
	}
	return nil
}
