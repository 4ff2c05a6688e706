// Package security is the security family of infra-operator: IAMRole, SecretsManagerSecret,
// KMSKey and ACMCertificate.
package security

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/security/acmcertificate"
	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/crds"
	"github.com/runner-codes/infra-operator/operators/security/iamrole"
	"github.com/runner-codes/infra-operator/operators/security/kmskey"
	"github.com/runner-codes/infra-operator/operators/security/secretsmanagersecret"
	"github.com/runner-codes/infra-operator/shared/engine"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "security"

// Family returns the security family with the kinds it implements so far.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Kinds: []engine.Controller{
			engine.For(iamrole.Kind()),
			engine.For(acmcertificate.Kind()),
			engine.For(kmskey.Kind()),
			engine.For(secretsmanagersecret.Kind()),
		},
	}
}
