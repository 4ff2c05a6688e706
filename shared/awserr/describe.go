package awserr

import (
	"errors"
	"fmt"

	"github.com/aws/smithy-go"
)

// Describe returns a stable, human-readable account of err for conditions and events: the
// operation, the AWS error code and AWS's message, without request IDs or other values that
// change from one attempt to the next.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return err.Error()
	}
	msg := apiErr.ErrorCode()
	if m := apiErr.ErrorMessage(); m != "" {
		msg += ": " + m
	}
	var opErr *smithy.OperationError
	if errors.As(err, &opErr) {
		return fmt.Sprintf("%s %s: %s", opErr.ServiceID, opErr.OperationName, msg)
	}
	return msg
}
