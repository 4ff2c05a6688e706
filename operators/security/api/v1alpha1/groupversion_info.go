// Package v1alpha1 holds the security family's kinds: IAMRole, SecretsManagerSecret, KMSKey
// and ACMCertificate.
//
// +kubebuilder:object:generate=true
// +groupName=aws-infra-operator.runner.codes
// +versionName=v1alpha1
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

var (
	// SchemeBuilder registers the security family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&IAMRole{}, &IAMRoleList{},
			&SecretsManagerSecret{}, &SecretsManagerSecretList{},
			&ACMCertificate{}, &ACMCertificateList{},
			&KMSKey{}, &KMSKeyList{},
			&IAMPolicy{}, &IAMPolicyList{},
			&IAMInstanceProfile{}, &IAMInstanceProfileList{},
			&IAMOIDCProvider{}, &IAMOIDCProviderList{},
		)
		return nil
	})
	// AddToScheme adds the security family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
