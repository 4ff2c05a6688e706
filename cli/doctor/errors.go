package doctor

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
)

// cannotCheck is the row of a check that the cluster did not let run: what (for example
// "list Deployments") names a kind whose CRD is missing, was forbidden to the user running
// doctor, timed out, or failed otherwise.
func cannotCheck(check, object, what string, err error) Row {
	switch {
	case meta.IsNoMatchError(err):
		return fail(check, object, fmt.Sprintf("cannot check: %s: its CRD is not installed", what), "see the crd rows")
	case apierrors.IsForbidden(err):
		return fail(check, object, fmt.Sprintf("cannot check: you may not %s", what),
			"run infractl doctor as a user who may "+what+" (for example a cluster administrator)")
	case errors.Is(err, context.DeadlineExceeded) || apierrors.IsTimeout(err):
		return fail(check, object, fmt.Sprintf("cannot check: %s timed out", what),
			"check that the API server answers (kubectl get --raw /readyz), or raise --check-timeout")
	default:
		return fail(check, object, fmt.Sprintf("cannot check: %s: %v", what, err),
			"check that the API server answers (kubectl get --raw /readyz) and run infractl doctor again")
	}
}

// capped returns rows, or its first maxRows and a summary row saying how many more there are,
// of what, and where to see them all.
func capped(check, what, seeAll string, rows []Row) []Row {
	if len(rows) <= maxRows {
		return rows
	}
	more := rows[maxRows:]
	worst := Warn
	for _, r := range more {
		if r.Status == Fail {
			worst = Fail
		}
	}
	return append(rows[:maxRows:maxRows], Row{Check: check, Object: "...", Status: worst,
		Detail: fmt.Sprintf("%d more %s like the above", len(more), what), Fix: seeAll})
}
