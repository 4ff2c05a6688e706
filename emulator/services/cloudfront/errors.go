package cloudfront

import (
	"fmt"
	"net/http"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// invalidArgument is CloudFront's answer to a request whose parameters break a rule.
func invalidArgument(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidArgument", format, args...)
}

// conflict returns a CloudFront error with HTTP status 409.
func conflict(code, format string, args ...any) *core.APIError {
	return &core.APIError{Code: code, Message: fmt.Sprintf(format, args...), Status: http.StatusConflict}
}

// checkIfMatch applies CloudFront's optimistic locking to a change of a resource whose current
// ETag is current: the If-Match header must be present (InvalidIfMatchVersion) and name that
// ETag (PreconditionFailed, HTTP 412).
func checkIfMatch(ifMatch *string, current string) error {
	if ifMatch == nil || *ifMatch == "" {
		return core.Errorf("InvalidIfMatchVersion", "The If-Match version is missing or not valid for the resource.")
	}
	if *ifMatch != current {
		return &core.APIError{Code: "PreconditionFailed", Status: http.StatusPreconditionFailed,
			Message: "The request failed because it didn't meet the preconditions in one or more request-header fields."}
	}
	return nil
}

// notFound returns a CloudFront error with HTTP status 404.
func notFound(code, message string) *core.APIError {
	return &core.APIError{Code: code, Message: message, Status: http.StatusNotFound}
}

// noSuchCachePolicy is the answer to a cache policy id that names no policy.
func noSuchCachePolicy() error {
	return notFound("NoSuchCachePolicy", "The cache policy does not exist.")
}

// noSuchOriginRequestPolicy is the answer to an origin request policy id that names no policy.
func noSuchOriginRequestPolicy() error {
	return notFound("NoSuchOriginRequestPolicy", "The origin request policy does not exist.")
}

// noSuchDistribution is the answer to a distribution id the account does not have.
func noSuchDistribution() error {
	return notFound("NoSuchDistribution", "The specified distribution does not exist.")
}
