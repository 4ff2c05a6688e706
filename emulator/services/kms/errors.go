package kms

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// validation returns KMS's ValidationException, its answer to a parameter outside the API's
// constraints.
func validation(format string, args ...any) *core.APIError {
	return core.Errorf("ValidationException", format, args...)
}

// tooSmall is AWS's ValidationException for a number below its member's minimum.
func tooSmall(member string, value, minimum int32) *core.APIError {
	return validation("1 validation error detected: Value '%d' at '%s' failed to satisfy constraint: Member must have value greater than or equal to %d", value, member, minimum)
}

// tooLarge is AWS's ValidationException for a number above its member's maximum.
func tooLarge(member string, value, maximum int32) *core.APIError {
	return validation("1 validation error detected: Value '%d' at '%s' failed to satisfy constraint: Member must have value less than or equal to %d", value, member, maximum)
}

// missing is AWS's answer to a request without a required member (the SDK checks for them
// before sending, so only other clients see it).
func missing(member string) *core.APIError {
	return validation("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", member)
}

// notFoundKey is AWS's NotFoundException for a key ID or key ARN that names no key in the
// caller's account and Region.
func notFoundKey(arn string) *core.APIError {
	return core.Errorf("NotFoundException", "Key '%s' does not exist", arn)
}

// invalidKeyID is AWS's NotFoundException for an identifier that is no key ID, key ARN, alias
// name or alias ARN (or one the operation does not accept, such as an alias where only a key ID
// or key ARN will do).
func invalidKeyID(id string) *core.APIError {
	return core.Errorf("NotFoundException", "Invalid keyId '%s'", id)
}

// notFoundAlias is AWS's NotFoundException for an alias that does not exist; it names the
// alias by its ARN.
func notFoundAlias(arn string) *core.APIError {
	return core.Errorf("NotFoundException", "Alias %s is not found.", arn)
}

// pendingDeletion is the KMSInvalidStateException of the key state table (Key states of AWS
// KMS keys) for an operation on a key that is scheduled for deletion.
func pendingDeletion(k *key) *core.APIError {
	if k.state == stateReplicaDeletion {
		return core.Errorf("KMSInvalidStateException", "%s is pending replica deletion.", k.arn)
	}
	return core.Errorf("KMSInvalidStateException", "%s is pending deletion.", k.arn)
}

// notPendingDeletion is the key state table's answer to CancelKeyDeletion on a key that is not
// scheduled for deletion.
func notPendingDeletion(k *key) *core.APIError {
	return core.Errorf("KMSInvalidStateException", "%s is not pending deletion.", k.arn)
}

// disabled is the key state table's DisabledException for a disabled key.
func disabled(k *key) *core.APIError {
	return core.Errorf("DisabledException", "%s is disabled.", k.arn)
}

// invalidKeyUsage is KMS's InvalidKeyUsageException for a key whose usage or spec the
// operation cannot use.
func invalidKeyUsage(k *key, operation string) *core.APIError {
	if k.usage != usageEncrypt {
		return core.Errorf("InvalidKeyUsageException", "%s key usage is %s which is not valid for %s.", k.arn, k.usage, operation)
	}
	return core.Errorf("InvalidKeyUsageException", "%s key spec is %s which is not valid for %s.", k.arn, k.spec, operation)
}

// unsupported is KMS's UnsupportedOperationException.
func unsupported(format string, args ...any) *core.APIError {
	return core.Errorf("UnsupportedOperationException", format, args...)
}

// tagError is KMS's TagException, its answer to tags it does not accept.
func tagError(format string, args ...any) *core.APIError {
	return core.Errorf("TagException", format, args...)
}

// malformedPolicy is KMS's MalformedPolicyDocumentException.
func malformedPolicy(format string, args ...any) *core.APIError {
	return core.Errorf("MalformedPolicyDocumentException", format, args...)
}

// invalidMarker is KMS's InvalidMarkerException for a Marker that no listing returned.
func invalidMarker() *core.APIError {
	return core.Errorf("InvalidMarkerException", "The request was rejected because the marker that specifies where pagination should next begin is not valid.")
}

// accessDenied is the answer to managing an AWS managed key: its key policy lets only the AWS
// service that owns it use it, so AWS refuses the caller, as IAM words it.
func accessDenied(call *core.Call, k *key, operation string) *core.APIError {
	return core.Errorf("AccessDeniedException",
		"User: arn:aws:iam::%s:root is not authorized to perform: kms:%s on resource: %s because no resource-based policy allows the kms:%s action",
		call.Account, operation, k.arn, operation)
}

// customerOnly returns accessDenied when k is an AWS managed key, which only its AWS service may
// manage, and nil for a customer managed key.
func customerOnly(call *core.Call, k *key, operation string) error {
	if k.manager == managerAWS {
		return accessDenied(call, k, operation)
	}
	return nil
}

// enumError is AWS's ValidationException for a value outside an enumeration.
func enumError(member, value string, allowed []string) *core.APIError {
	return validation("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: %s",
		value, member, "["+strings.Join(allowed, ", ")+"]")
}
