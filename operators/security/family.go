// Package security is the security family of infra-operator: IAMRole, SecretsManagerSecret, KMSKey and ACMCertificate.
package security

import "github.com/runner-codes/infra-operator/shared/operator"

// Name is the family's name.
const Name = "security"

// Family returns the security family with every kind it implements so far. Kinds are added to
// AddToScheme and Setup as their drivers land; until then the family runs the AWSProvider
// controller and serves its health and metrics endpoints.
func Family() operator.Family {
	return operator.Family{Name: Name}
}
