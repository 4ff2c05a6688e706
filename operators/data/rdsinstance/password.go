package rdsinstance

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

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
// key is a *managed.WaitingError: the object recovers by itself when the Secret appears. A
// password RDS would refuse is a *managed.TerminalError that never holds the value.
func (d *driver) password(ctx context.Context, i *v1alpha1.RDSInstance) (password, error) {
	ref := i.Spec.MasterUserPasswordSecretRef
	var s corev1.Secret
	err := d.kube.Get(ctx, types.NamespacedName{Namespace: i.Namespace, Name: ref.Name}, &s)
	if apierrors.IsNotFound(err) {
		return password{}, &managed.WaitingError{Reason: condition.ReasonSecretNotFound, After: secretRetry,
			Message: fmt.Sprintf("Secret %s/%s, which spec.masterUserPasswordSecretRef names, does not exist", i.Namespace, ref.Name)}
	}
	if err != nil {
		return password{}, fmt.Errorf("read Secret %s/%s: %w", i.Namespace, ref.Name, err)
	}
	v := s.Data[ref.Key]
	if len(v) == 0 {
		return password{}, &managed.WaitingError{Reason: condition.ReasonSecretNotFound, After: secretRetry,
			Message: fmt.Sprintf("Secret %s/%s has no key %q (or it is empty), which spec.masterUserPasswordSecretRef names", i.Namespace, ref.Name, ref.Key)}
	}
	if problem := passwordProblem(i.Spec.Engine, string(v)); problem != "" {
		return password{}, managed.Terminal(condition.ReasonSecretValueInvalid, "the password in Secret %s/%s, key %q, %s; change the Secret's value",
			i.Namespace, ref.Name, ref.Key, problem)
	}
	return password{value: string(v), version: ref.Name + "/" + s.ResourceVersion}, nil
}

// passwordProblem says why RDS would refuse p as the master password of engine, without
// revealing p, or returns "". The rules are AWS's (CreateDBInstance reference,
// MasterUserPassword): printable ASCII except /, " and @, and no spaces (the RDS console's
// rule, which the emulator follows), for Oracle neither & nor '; 8 to 41 characters for
// MariaDB and MySQL, 8 to 30 for Oracle, 8 to 128 for PostgreSQL and SQL Server.
func passwordProblem(engine, p string) string {
	forbidden, described := `/"@`, `/, ", @ or spaces`
	if strings.HasPrefix(engine, "oracle") {
		forbidden, described = `/"@&'`, `/, ", @, &, ' or spaces`
	}
	if strings.ContainsAny(p, "\r\n") {
		return "holds a line break (a value written from a file often ends with one)"
	}
	for _, c := range p {
		if c <= ' ' || c > '~' || strings.ContainsRune(forbidden, c) {
			return "holds a character RDS refuses: use printable ASCII characters without " + described
		}
	}
	longest := 128
	switch {
	case engine == "mysql" || engine == "mariadb":
		longest = 41
	case strings.HasPrefix(engine, "oracle"):
		longest = 30
	}
	switch {
	case len(p) < 8:
		return "is shorter than 8 characters, the fewest RDS takes"
	case len(p) > longest:
		return fmt.Sprintf("is longer than %d characters, the most %s takes", longest, engine)
	}
	return ""
}
