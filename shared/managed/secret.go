package managed

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// SecretRetry is how soon an object waiting for a missing Secret looks for it again; the
// Secret's creation wakes the object sooner through the watch the engine keeps on the Secrets
// a kind declares (Kind.Secrets).
const SecretRetry = time.Minute

// SecretValue reads the key ref names in a Secret of namespace ns, for the spec field named
// field, through kube (which reads the API server: Secrets are not cached). A missing Secret,
// or a key that is missing or empty, is a *WaitingError (SecretNotFound, SecretKeyNotFound):
// the object recovers by itself when the Secret appears or changes. version is
// "<secret name>/<resourceVersion>", which changes with the value. No error holds the value, and
// the value is registered as secret in ctx's pass (see RegisterSecret).
func SecretValue(ctx context.Context, kube client.Reader, ns, field string, ref v1alpha1.SecretKeySelector) (value []byte, version string, err error) {
	data, version, err := SecretData(ctx, kube, ns, field, ref.Name, []string{ref.Key}, nil)
	return data[ref.Key], version, err
}

// SecretData reads several keys of Secret name in namespace ns at once, for the spec field
// named field, as SecretValue reads one: each required key must be present and not empty (or
// the error is a *WaitingError, SecretKeyNotFound); optional keys that are absent or empty are
// left out of data. No error holds a value, and every value returned is registered as secret
// in ctx's pass (see RegisterSecret), so that the engine keeps it out of conditions, events and
// logs.
func SecretData(ctx context.Context, kube client.Reader, ns, field, name string, required, optional []string) (data map[string][]byte, version string, err error) {
	var s corev1.Secret
	err = kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &s)
	if apierrors.IsNotFound(err) {
		return nil, "", &WaitingError{Reason: condition.ReasonSecretNotFound, After: SecretRetry,
			Message: fmt.Sprintf("Secret %s/%s, which %s names, does not exist", ns, name, field)}
	}
	if err != nil {
		return nil, "", fmt.Errorf("read Secret %s/%s: %w", ns, name, err)
	}
	data = map[string][]byte{}
	for _, k := range required {
		if len(s.Data[k]) == 0 {
			return nil, "", &WaitingError{Reason: condition.ReasonSecretKeyNotFound, After: SecretRetry,
				Message: fmt.Sprintf("Secret %s/%s has no key %q (or it is empty), which %s names", ns, name, k, field)}
		}
		data[k] = s.Data[k]
	}
	for _, k := range optional {
		if len(s.Data[k]) > 0 {
			data[k] = s.Data[k]
		}
	}
	for _, v := range data {
		RegisterSecret(ctx, v)
	}
	return data, name + "/" + s.ResourceVersion, nil
}
