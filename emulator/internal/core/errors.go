// Package core holds what every emulated service shares: operations, calls, errors, the
// simulation clock, fault injection and call counters.
package core

import (
	"fmt"
	"net/http"
)

// APIError is an AWS error as a service returns it. The protocol codec turns it into its
// protocol's error envelope.
type APIError struct {
	// Code is the AWS error code, for example "QueueDoesNotExist".
	Code string
	// Message is AWS's message.
	Message string
	// Status is the HTTP status code (400 when zero).
	Status int
	// Server is true for faults on AWS's side (Type "Receiver" in query protocols).
	Server bool
	// QueryCode is the legacy awsQuery code a query-compatible JSON service sends in its
	// x-amzn-query-error header, when the service's error registry does not give it.
	QueryCode string
}

// Error returns the code and message.
func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// HTTPStatus returns the HTTP status code of the error.
func (e *APIError) HTTPStatus() int {
	if e.Status == 0 {
		return http.StatusBadRequest
	}
	return e.Status
}

// Errorf returns a client error (HTTP 400) with the given code and formatted message.
func Errorf(code, format string, args ...any) *APIError {
	return &APIError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFoundf returns a client error with HTTP 404.
func NotFoundf(code, format string, args ...any) *APIError {
	return &APIError{Code: code, Message: fmt.Sprintf(format, args...), Status: http.StatusNotFound}
}
