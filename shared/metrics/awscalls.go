package metrics

import (
	"context"
	"errors"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/runner-codes/infra-operator/shared/awserr"
)

// The middlewares' names in the SDK's stack.
const (
	awsCallsID    = "InfraOperatorAWSCallMetrics"
	awsCallTagsID = "InfraOperatorAWSCallAttempts"
)

// The outcomes of an attempt that AWSRequests counts.
const (
	OutcomeSuccess     = "success"
	OutcomeThrottled   = "throttled"
	OutcomeClientError = "client_error"
	OutcomeServerError = "server_error"
	OutcomeTransport   = "transport"
)

// AWSCallMetrics returns an aws.Config APIOptions entry for the sessions of the provider
// providerNamespace/provider (namespace empty for a ClusterAWSProvider) that counts every
// attempt of every AWS API call in AWSAPICalls (by AWS error code) and in AWSRequests (by
// provider and outcome class), and every retry in AWSRetries. It sits after the retry
// middleware, so each retry is counted: that is what AWS's rate limits see. In a create's
// context (WithAttempts) it also keeps the SDK from retrying a write whose outcome is unknown.
func AWSCallMetrics(providerNamespace, provider string) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		if err := stack.Initialize.Add(middleware.InitializeMiddlewareFunc(awsCallTagsID, startCall), middleware.Before); err != nil {
			return err
		}
		count := func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			service, operation := awsmiddleware.GetServiceID(ctx), awsmiddleware.GetOperationName(ctx)
			AWSAPICalls.WithLabelValues(service, operation, errorCode(err)).Inc()
			AWSRequests.WithLabelValues(providerNamespace, provider, service, operation, Outcome(err)).Inc()
			if n, ok := ctx.Value(callKey{}).(*int); ok {
				if *n++; *n > 1 {
					AWSRetries.WithLabelValues(providerNamespace, provider, service, operation).Inc()
				}
			}
			return out, md, guardAttempt(ctx, err)
		}
		return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc(awsCallsID, count), middleware.After)
	}
}

// callKey keys, in the context of one API call, the number of attempts made so far.
type callKey struct{}

// startCall gives the call's context its attempt counter. The SDK's retry loop runs each
// attempt of one call in turn, so the counter needs no lock.
func startCall(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	return next.HandleInitialize(context.WithValue(ctx, callKey{}, new(int)), in)
}

// errorCode names the result of one attempt: "success", the AWS error code, or "transport".
func errorCode(err error) string {
	if err == nil {
		return OutcomeSuccess
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return OutcomeTransport
}

// Outcome classes the result of one attempt: success; throttled (a rate limit, whatever its
// status code); server_error (AWS answered 5xx); client_error (AWS answered 4xx: a refusal,
// a missing resource, bad input); transport (no answer: the connection failed or timed out).
func Outcome(err error) string {
	if err == nil {
		return OutcomeSuccess
	}
	if awserr.Classify(err) == awserr.ClassThrottling {
		return OutcomeThrottled
	}
	var resp interface{ HTTPStatusCode() int }
	switch {
	case !errors.As(err, &resp) || resp.HTTPStatusCode() == 0:
		return OutcomeTransport
	case resp.HTTPStatusCode() >= 500:
		return OutcomeServerError
	default:
		return OutcomeClientError
	}
}
