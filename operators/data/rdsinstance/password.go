package rdsinstance

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdspassword"
)

// password reads the master password from the Secret key the spec names (see rdspassword.Read:
// a missing Secret or key waits, and a password RDS would refuse is terminal without the value).
func (d *driver) password(ctx context.Context, i *v1alpha1.RDSInstance) (rdspassword.Password, error) {
	return rdspassword.Read(ctx, d.kube, i.Namespace, "spec.masterUserPasswordSecretRef", i.Spec.MasterUserPasswordSecretRef, i.Spec.Engine)
}
