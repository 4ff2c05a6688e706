package engine

import "golang.org/x/time/rate"

// newBucket returns the overall rate limit of one kind's work queue: retries of all objects
// together, 20 per second with bursts of 200, so a failing provider cannot storm AWS.
func newBucket() *rate.Limiter {
	return rate.NewLimiter(rate.Limit(20), 200)
}
