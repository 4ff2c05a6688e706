package rdsinstance

import (
	"context"
	"fmt"
	"strings"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// password is the master password and the version of the Secret it was read from. The value is
// never logged, reported or written to the object.
type password struct {
	value string
	// version is "<secret name>/<resourceVersion>", recorded in status.masterUserPasswordVersion.
	version string
}

// password reads the master password from the Secret key the spec names (see
// managed.SecretValue: a missing Secret or key waits, and recovers by itself). A
// password RDS would refuse is a *managed.TerminalError that never holds the value.
func (d *driver) password(ctx context.Context, i *v1alpha1.RDSInstance) (password, error) {
	ref := i.Spec.MasterUserPasswordSecretRef
	v, version, err := managed.SecretValue(ctx, d.kube, i.Namespace, "spec.masterUserPasswordSecretRef", ref)
	if err != nil {
		return password{}, err
	}
	if problem := passwordProblem(i.Spec.Engine, string(v)); problem != "" {
		return password{}, managed.Terminal(condition.ReasonSecretValueInvalid, "the password in Secret %s/%s, key %q, %s; change the Secret's value",
			i.Namespace, ref.Name, ref.Key, problem)
	}
	return password{value: string(v), version: version}, nil
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
