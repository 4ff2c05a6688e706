package managed

import shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"

// KindUnavailable returns the terminal error, with reason, for ref: a reference in the spec
// field named field to an object of kind, a kind of family that does not exist yet; nil when
// ref is not set. instead says what to give meanwhile, for example "give the key as kmsKeyID
// instead". Kinds return it from Validate, before any AWS call.
func KindUnavailable(reason, field string, ref *shared.Reference, kind, family, instead string) error {
	if ref == nil {
		return nil
	}
	return Terminal(reason, "%s names %s %s, but the %s kind (%s family) is not available yet; %s", field, kind, ref.Name, kind, family, instead)
}
