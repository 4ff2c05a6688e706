// Package doctor checks an infra-operator install in a cluster: the CRDs against the ones this
// infractl embeds, each family's Deployment, its permissions, the AWSProviders, the tenancy
// settings left open, objects stuck deleting or stalled, and the metrics endpoints. Every
// finding is a Row with a status and, when it is not ok, a fix.
package doctor

// Status is the outcome of one row.
type Status string

// The statuses of a row.
const (
	// OK means the thing checked is as it should be.
	OK Status = "ok"
	// Warn means it works but deserves a look.
	Warn Status = "warn"
	// Fail means it is broken, or could not be checked.
	Fail Status = "fail"
)

// The checks, as they name their rows.
const (
	CheckCRD        = "crd"
	CheckDeployment = "deployment"
	CheckRBAC       = "rbac"
	CheckProvider   = "provider"
	CheckTenancy    = "tenancy"
	CheckStuck      = "stuck"
	CheckMetrics    = "metrics"
)

// Row is one finding: what was checked, on which object, its status, why, and how to fix it.
type Row struct {
	Check  string `json:"check"`
	Object string `json:"object"`
	Status Status `json:"status"`
	Detail string `json:"detail,omitempty"`
	Fix    string `json:"fix,omitempty"`
}

// Report is every row of a doctor run, in the order of the checks.
type Report struct {
	Rows []Row `json:"rows"`
}

// ExitFail is the exit status of infractl doctor when a row failed, as infractl plan exits 3
// when something is blocked; 1 stays for the command itself failing.
const ExitFail = 3

// Count returns how many rows have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, row := range r.Rows {
		if row.Status == s {
			n++
		}
	}
	return n
}

// ok, warn and fail build rows.
func ok(check, object, detail string) Row {
	return Row{Check: check, Object: object, Status: OK, Detail: detail}
}

func warn(check, object, detail, fix string) Row {
	return Row{Check: check, Object: object, Status: Warn, Detail: detail, Fix: fix}
}

func fail(check, object, detail, fix string) Row {
	return Row{Check: check, Object: object, Status: Fail, Detail: detail, Fix: fix}
}
