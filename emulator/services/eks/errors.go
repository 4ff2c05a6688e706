package eks

import (
	"net/http"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The errors below are those the Amazon EKS API Reference lists for the emulated operations,
// with the HTTP status codes of their error shapes and, where AWS's wording is known, its
// messages.

// invalidParameter is InvalidParameterException (400): a parameter is not valid.
func invalidParameter(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidParameterException", format, args...)
}

// invalidRequest is InvalidRequestException (400): the request is not valid given the state of
// the cluster.
func invalidRequest(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidRequestException", format, args...)
}

// inUse is ResourceInUseException (409): the resource exists already or is busy.
func inUse(format string, args ...any) *core.APIError {
	e := core.Errorf("ResourceInUseException", format, args...)
	e.Status = http.StatusConflict
	return e
}

// notFound is ResourceNotFoundException (404).
func notFound(format string, args ...any) *core.APIError {
	return core.NotFoundf("ResourceNotFoundException", format, args...)
}

// badRequest is BadRequestException (400), which the tagging operations answer for bad input.
func badRequest(format string, args ...any) *core.APIError {
	return core.Errorf("BadRequestException", format, args...)
}

func clusterNotFound(name string) *core.APIError {
	return notFound("No cluster found for name: %s.", name)
}

func nodegroupNotFound(name string) *core.APIError {
	return notFound("No node group found for name: %s.", name)
}

func addonNotFound(cluster, name string) *core.APIError {
	return notFound("No addon: %s found in cluster: %s", name, cluster)
}

// notActive is AWS's answer to creating a node group or add-on in a cluster that is not ACTIVE.
func notActive(cluster string) *core.APIError {
	return invalidRequest("Cluster '%s' is not in ACTIVE status", cluster)
}
