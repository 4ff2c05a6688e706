// Package rdspassword reads the master password of an RDS database (a DB instance, an Aurora
// DB cluster) from the Secret key its spec names, and checks it against RDS's rules without
// revealing it.
package rdspassword

import (
	"context"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Password is the master password and the version of the Secret it was read from. The value is
// never logged, reported or written to the object.
type Password struct {
	// Value is the password.
	Value string
	// Version is "<secret name>/<resourceVersion>", recorded in the object's status
	// (masterUserPasswordVersion) once RDS has taken the password.
	Version string
}

// Read reads the master password of engine from the Secret key ref of namespace, named by the
// spec field field (see managed.SecretValue: a missing Secret or key waits, and recovers by
// itself). A password RDS would refuse is a *managed.TerminalError that never holds the value.
func Read(ctx context.Context, kube client.Reader, namespace, field string, ref shared.SecretKeySelector, engine string) (Password, error) {
	v, version, err := managed.SecretValue(ctx, kube, namespace, field, ref)
	if err != nil {
		return Password{}, err
	}
	if problem := Problem(engine, string(v)); problem != "" {
		return Password{}, managed.Terminal(condition.ReasonSecretValueInvalid, "the password in Secret %s/%s, key %q, %s; change the Secret's value",
			namespace, ref.Name, ref.Key, problem)
	}
	return Password{Value: string(v), Version: version}, nil
}

// Problem says why RDS would refuse p as the master password of engine, without revealing p,
// or returns "". The rules are AWS's (CreateDBInstance and CreateDBCluster references,
// MasterUserPassword): printable ASCII except /, " and @, and no spaces (the RDS console's
// rule, which the emulator follows), for Oracle neither & nor '; 8 to 41 characters for
// MariaDB, MySQL and Aurora (CreateDBCluster's reference gives 8 to 41 for every Aurora
// cluster), 8 to 30 for Oracle, 8 to 128 for PostgreSQL and SQL Server.
func Problem(engine, p string) string {
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
	case engine == "mysql" || engine == "mariadb" || strings.HasPrefix(engine, "aurora"):
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
