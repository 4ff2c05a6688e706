// Package kmskey manages customer managed KMS keys for the KMSKey kind: the key with its key
// spec, usage and multi-Region setting (fixed at creation), its description, key policy
// (compared as a policy, never as text), automatic rotation, enabled state, aliases as a set,
// and tags. Deleting an object schedules its key's deletion after the spec's waiting period.
//
// A key has no name and CreateKey no idempotency token, so the key id is recorded the moment
// CreateKey answers, and the key is tagged with its ownership tags at creation: a create whose
// answer was lost is found again by a bounded search of the account's keys by their tags
// (search.go). The same search, made only when the engine is about to create a key, finds a
// key that the operator scheduled for deletion for an earlier object of the same namespace
// and name: its deletion is canceled and the key reused instead of a second one created.
package kmskey

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the KMSKey kind to the engine. KMS makes a key usable at once, so the engine
// looks again in the pass that created it and applies rotation and aliases there.
func Kind() managed.Kind[*v1alpha1.KMSKey, State] {
	return managed.Kind[*v1alpha1.KMSKey, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.KMSKey) managed.Driver[*v1alpha1.KMSKey, State] {
			return &driver{api: provider.Client(s, "kms", func(c aws.Config) *kms.Client { return kms.NewFromConfig(c) })}
		},
		Validate: validate,
	}
}

// validate refuses a key policy that is not a JSON object before any AWS call.
func validate(k *v1alpha1.KMSKey) error {
	if _, err := policy.Canonical(k.Spec.KeyPolicy); err != nil {
		return fmt.Errorf("spec.keyPolicy is not a JSON policy document: %w", err)
	}
	return nil
}

// driver manages one provider's KMS keys.
type driver struct {
	api kmsAPI
}

// enabled reports whether the spec wants the key enabled (the default).
func enabled(k *v1alpha1.KMSKey) bool {
	return k.Spec.Enabled == nil || *k.Spec.Enabled
}

// window returns the spec's waiting period before KMS deletes the key, in days.
func window(k *v1alpha1.KMSKey) int32 {
	if k.Spec.PendingWindowInDays == 0 {
		return defaultWindow
	}
	return k.Spec.PendingWindowInDays
}

// defaultWindow is KMS's waiting period when none is given, in days.
const defaultWindow = 30
