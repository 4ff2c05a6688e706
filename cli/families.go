package cli

import (
	"github.com/runner-codes/infra-operator/operators/caching"
	"github.com/runner-codes/infra-operator/operators/compute"
	"github.com/runner-codes/infra-operator/operators/containers"
	"github.com/runner-codes/infra-operator/operators/data"
	"github.com/runner-codes/infra-operator/operators/edge"
	"github.com/runner-codes/infra-operator/operators/messaging"
	"github.com/runner-codes/infra-operator/operators/networking"
	"github.com/runner-codes/infra-operator/operators/security"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Families returns every operator family, in the order the sandbox runs them all in one
// process; the repository-wide checks (the e2e module) walk the same list.
func Families() []operator.Family {
	return []operator.Family{
		networking.Family(), compute.Family(), data.Family(), messaging.Family(),
		edge.Family(), security.Family(), containers.Family(), caching.Family(),
	}
}
