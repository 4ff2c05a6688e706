package metrics

import (
	"context"
	"errors"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
)

// awsCallsID names the middleware in the SDK's stack.
const awsCallsID = "InfraOperatorAWSCallMetrics"

// AddAWSCallMetrics is an aws.Config APIOptions entry that counts every attempt of every AWS
// API call in AWSAPICalls. It sits after the retry middleware, so each retry is counted: that
// is what AWS's rate limits see. In a create's context (WithAttempts) it also keeps the SDK
// from retrying a write whose outcome is unknown.
func AddAWSCallMetrics(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc(awsCallsID, countAttempt), middleware.After)
}

func countAttempt(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleFinalize(ctx, in)
	AWSAPICalls.WithLabelValues(awsmiddleware.GetServiceID(ctx), awsmiddleware.GetOperationName(ctx), outcome(err)).Inc()
	return out, md, guardAttempt(ctx, err)
}

// outcome names the result of one attempt: "success", the AWS error code, or "transport".
func outcome(err error) string {
	if err == nil {
		return "success"
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return "transport"
}
