// Package security is the security family of infra-operator: IAMRole, IAMPolicy,
// IAMInstanceProfile, IAMOIDCProvider, SecretsManagerSecret, KMSKey and ACMCertificate.
package security

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/security/acmcertificate"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/crds"
	"github.com/runner-codes/infra-operator/operators/security/iaminstanceprofile"
	"github.com/runner-codes/infra-operator/operators/security/iamoidcprovider"
	"github.com/runner-codes/infra-operator/operators/security/iampolicy"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/operators/security/kmskey"
	"github.com/runner-codes/infra-operator/operators/security/secretsmanagersecret"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "security"

// Tunables are the timings of the security family's kinds; a zero field takes its default.
// Tests shorten them, since they cannot wait as long as AWS makes an operator wait.
type Tunables struct {
	// IAMRole paces IAM roles: how long a new role propagates; new instance profiles take the
	// same time.
	IAMRole iamrole.Tunables
	// ACMCertificate paces certificates waiting for validation.
	ACMCertificate acmcertificate.Tunables
}

// Family returns the security family with its kinds, with the default timings.
func Family() operator.Family { return FamilyWith(Tunables{}) }

// FamilyWith returns the security family with its kinds, with the timings t.
func FamilyWith(t Tunables) operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(iamrole.Kind(t.IAMRole)),
			engine.For(acmcertificate.Kind(t.ACMCertificate)),
			engine.For(kmskey.Kind()),
			engine.For(secretsmanagersecret.Kind()),
			engine.For(iampolicy.Kind()),
			engine.For(iaminstanceprofile.Kind(t.IAMRole.WithDefaults().Propagation)),
			engine.For(iamoidcprovider.Kind()),
		},
	}
}
