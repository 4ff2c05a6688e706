package metrics

import (
	"context"
	"strings"
	"sync/atomic"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"

	"github.com/runner-codes/infra-operator/shared/awserr"
)

// attemptsKey keys an *Attempts in a context.
type attemptsKey struct{}

// Attempts watches the writes of a create: the AWS calls made with its context that are not
// reads. A write attempt whose outcome AWS did not state (a transport failure: the request may
// have arrived; a server error other than throttling: AWS may have done the work before
// failing) is counted, and the SDK does not retry it, since a second attempt could create a
// second resource where the API has no idempotency token. The reconciler retries later, after
// looking the resource up.
type Attempts struct {
	uncertain atomic.Int32
}

// WithAttempts returns ctx and the Attempts that every AWS call made with it updates.
func WithAttempts(ctx context.Context) (context.Context, *Attempts) {
	a := &Attempts{}
	return context.WithValue(ctx, attemptsKey{}, a), a
}

// Uncertain returns how many write attempts ended without a clear answer from AWS.
func (a *Attempts) Uncertain() int { return int(a.uncertain.Load()) }

// guardAttempt counts the outcome of one attempt in ctx's Attempts, if any, and makes an
// uncertain write attempt final for the SDK's retryer.
func guardAttempt(ctx context.Context, err error) error {
	a, ok := ctx.Value(attemptsKey{}).(*Attempts)
	if !ok || err == nil || isRead(awsmiddleware.GetOperationName(ctx)) {
		return err
	}
	switch awserr.Classify(err) {
	case awserr.ClassUnavailable, awserr.ClassUnknown:
		a.uncertain.Add(1)
		return &notRetried{err: err}
	}
	return err
}

// isRead reports whether an AWS operation only reads, by AWS's naming of operations.
func isRead(operation string) bool {
	for _, prefix := range []string{"Describe", "Get", "List", "Head"} {
		if strings.HasPrefix(operation, prefix) {
			return true
		}
	}
	return false
}

// notRetried is an attempt's error that the SDK's retryer must not retry.
type notRetried struct{ err error }

// Error returns the attempt's error.
func (e *notRetried) Error() string { return e.err.Error() }

// Unwrap returns the attempt's error.
func (e *notRetried) Unwrap() error { return e.err }

// RetryableError tells the SDK's retryer not to retry.
func (e *notRetried) RetryableError() bool { return false }
