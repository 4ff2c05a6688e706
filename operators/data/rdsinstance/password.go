package rdsinstance

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// ReasonSecretNotFound is the waiting reason for a password Secret or key that does not exist.
const ReasonSecretNotFound = "SecretNotFound"

// secretRetry is how soon a missing password Secret is looked for again; its creation wakes the
// object sooner through the Secret watch.
const secretRetry = time.Minute

// password is the master password and the version of the Secret it was read from. The value is
// never logged, reported or written to the object.
type password struct {
	value string
	// version is "<secret name>/<resourceVersion>", recorded in status.masterUserPasswordVersion.
	version string
}

// password reads the master password from the Secret key the spec names. A missing Secret or
// key is a *managed.WaitingError: the object recovers by itself when the Secret appears.
func (d *driver) password(ctx context.Context, i *v1alpha1.RDSInstance) (password, error) {
	ref := i.Spec.MasterUserPasswordSecretRef
	var s corev1.Secret
	err := d.kube.Get(ctx, types.NamespacedName{Namespace: i.Namespace, Name: ref.Name}, &s)
	if apierrors.IsNotFound(err) {
		return password{}, &managed.WaitingError{Reason: ReasonSecretNotFound, After: secretRetry,
			Message: fmt.Sprintf("Secret %s/%s, which spec.masterUserPasswordSecretRef names, does not exist", i.Namespace, ref.Name)}
	}
	if err != nil {
		return password{}, fmt.Errorf("read Secret %s/%s: %w", i.Namespace, ref.Name, err)
	}
	v := s.Data[ref.Key]
	if len(v) == 0 {
		return password{}, &managed.WaitingError{Reason: ReasonSecretNotFound, After: secretRetry,
			Message: fmt.Sprintf("Secret %s/%s has no key %q (or it is empty), which spec.masterUserPasswordSecretRef names", i.Namespace, ref.Name, ref.Key)}
	}
	return password{value: string(v), version: ref.Name + "/" + s.ResourceVersion}, nil
}
