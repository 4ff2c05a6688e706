package core

import (
	"errors"
	"strings"
)

// SigV4Scope is what the Authorization header of a SigV4-signed request says about the caller.
type SigV4Scope struct {
	AccessKey, Date, Region, Service string
}

// ErrUnsigned is returned for a request without an Authorization header.
var ErrUnsigned = errors.New("the request is not signed")

// ParseSigV4 reads the credential scope of an Authorization header of the form
// "AWS4-HMAC-SHA256 Credential=AKID/20261122/us-east-1/sqs/aws4_request, SignedHeaders=..., Signature=...".
// The signature itself is not verified: any key is accepted.
func ParseSigV4(header string) (SigV4Scope, error) {
	if header == "" {
		return SigV4Scope{}, ErrUnsigned
	}
	if !strings.HasPrefix(header, "AWS4-HMAC-SHA256 ") {
		return SigV4Scope{}, errors.New("only AWS4-HMAC-SHA256 signatures are supported")
	}
	var credential string
	var signed bool
	for _, part := range strings.Split(strings.TrimPrefix(header, "AWS4-HMAC-SHA256 "), ",") {
		part = strings.TrimSpace(part)
		switch {
		case strings.HasPrefix(part, "Credential="):
			credential = strings.TrimPrefix(part, "Credential=")
		case strings.HasPrefix(part, "Signature="):
			signed = len(strings.TrimPrefix(part, "Signature=")) > 0
		}
	}
	fields := strings.Split(credential, "/")
	if len(fields) != 5 || fields[4] != "aws4_request" || fields[0] == "" || !signed {
		return SigV4Scope{}, errors.New("the Authorization header is malformed")
	}
	return SigV4Scope{AccessKey: fields[0], Date: fields[1], Region: fields[2], Service: fields[3]}, nil
}
