package emulator

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/wire"
)

// request is one parsed AWS request.
type request struct {
	svc       *core.Service
	operation string
	body      []byte
	form      url.Values
	labels    map[string]string
	http      *http.Request
	call      *core.Call
}

// parse identifies the service and operation of r and the caller's account and region.
func (s *Server) parse(r *http.Request) (*request, error) {
	req := &request{http: r, call: &core.Call{Context: r.Context(), RequestID: s.requestID(), Now: s.Clock.Now(), Host: r.Host, Scheme: "http"}}
	target := r.Header.Get("X-Amz-Target")
	scope, sigErr := core.ParseSigV4(r.Header.Get("Authorization"))
	named := s.headerService(r, target, scope, sigErr)
	body, err := readBody(r, named, target)
	if err != nil {
		// The body is refused before it can name the service; answer in the envelope of the
		// service the headers name.
		req.svc = named
		return req, err
	}
	req.body = body
	if target != "" {
		prefix, op, _ := strings.Cut(target, ".")
		req.svc, req.operation = s.byTarget[prefix], op
	} else if form, err := url.ParseQuery(string(body)); err == nil {
		req.form = form
		req.operation = form.Get("Action")
		req.svc = s.byVer[form.Get("Version")]
	}
	if sigErr == nil {
		if svc, ok := s.signed(scope.Service, r.URL.Path); ok {
			req.svc = svc
		}
	}
	if req.svc != nil && (req.svc.Protocol == core.ProtocolRESTXML || req.svc.Protocol == core.ProtocolRESTJSON) {
		req.operation, req.labels = matchREST(req.svc, r)
		if strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") {
			if req.body, err = decodeChunked(body); err != nil {
				return req, core.Errorf("IncompleteBody", "%v", err)
			}
		}
	}
	if req.svc == nil && sigErr != nil && target == "" && req.operation == "" {
		// Nothing names a service: an anonymous REST call, which AWS's S3 endpoints answer.
		req.svc, _ = s.signed("s3", r.URL.Path)
		req.operation, req.labels = matchREST(req.svc, r)
	}
	if req.svc == nil {
		return req, &core.APIError{Code: "UnknownService", Status: http.StatusBadRequest,
			Message: "the emulator does not implement the service this request is for (signing name " + scope.Service + ")"}
	}
	if sigErr != nil && !req.svc.Unsigned[req.operation] {
		return req, signatureError(req.svc.Protocol, sigErr)
	}
	req.call.AccessKey = scope.AccessKey
	req.call.Account = s.account(scope.AccessKey)
	req.call.Region = scope.Region
	if req.call.Region == "" {
		req.call.Region = "us-east-1"
	}
	return req, nil
}

// headerService returns the service a request's headers name, which is all that is known of it
// before its body is read: the SigV4 signing name's, else the X-Amz-Target prefix's. It is nil
// when only the body can tell (unsigned query requests).
func (s *Server) headerService(r *http.Request, target string, scope core.SigV4Scope, sigErr error) *core.Service {
	if sigErr == nil {
		if svc, ok := s.signed(scope.Service, r.URL.Path); ok {
			return svc
		}
	}
	prefix, _, _ := strings.Cut(target, ".")
	return s.byTarget[prefix]
}

// readBody reads a request body of at most the service's limit (core.DefaultMaxBody when svc is
// nil). A body whose Content-Length exceeds it is refused unread; one without a Content-Length
// is refused once more than the limit has been read.
func readBody(r *http.Request, svc *core.Service, target string) ([]byte, error) {
	limit := svc.BodyLimit()
	if r.ContentLength > limit {
		return nil, tooLarge(svc, r, target)
	}
	if r.ContentLength >= 0 {
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, core.Errorf("IncompleteBody", "cannot read the request body")
		}
		return body, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, core.Errorf("IncompleteBody", "cannot read the request body")
	}
	if int64(len(body)) > limit {
		return nil, tooLarge(svc, r, target)
	}
	return body, nil
}

// tooLarge is the answer to a request body above the service's limit: the service's own error
// for the operation the method and path or the X-Amz-Target header name, or a generic HTTP 413.
func tooLarge(svc *core.Service, r *http.Request, target string) *core.APIError {
	if svc != nil && svc.TooLarge != nil {
		_, op, _ := strings.Cut(target, ".")
		if svc.Protocol == core.ProtocolRESTJSON || svc.Protocol == core.ProtocolRESTXML {
			op, _ = matchREST(svc, r)
		}
		return svc.TooLarge(op)
	}
	return &core.APIError{Code: "RequestEntityTooLarge", Status: http.StatusRequestEntityTooLarge,
		Message: fmt.Sprintf("The request body must not be larger than %d bytes", svc.BodyLimit())}
}

// dispatch runs the request's operation with the faults in force and writes the answer.
func (s *Server) dispatch(w http.ResponseWriter, req *request) {
	svc := req.svc
	outcome := "success"
	defer func() { s.Calls.Add(svc.ID, req.operation, outcome) }()
	fail := func(err *core.APIError) {
		outcome = err.Code
		req.writeError(w, err)
	}
	fault := s.Faults.For(svc.ID, req.operation)
	if fault.Latency > 0 {
		select {
		case <-time.After(time.Duration(fault.Latency)):
		case <-req.call.Context.Done():
			return
		}
	}
	if s.Faults.Roll(fault.ThrottleRate) {
		fail(svc.Throttle)
		return
	}
	if s.Faults.Roll(fault.ErrorRate) {
		fail(internalError(svc.Protocol))
		return
	}
	op, ok := svc.Operations[req.operation]
	if !ok {
		fail(unknownOperation(svc, req.operation))
		return
	}
	in := op.NewInput()
	if err := req.decode(in); err != nil {
		fail(malformed(svc, err))
		return
	}
	req.call.Fault = fault
	req.call.Transition = svc.Transition
	if d, ok := s.transitions[svc.ID]; ok {
		req.call.Transition = d
	}
	out, err := op.Handle(req.call, in)
	if err != nil {
		apiErr, ok := err.(*core.APIError)
		if !ok {
			apiErr = &core.APIError{Code: "InternalFailure", Status: http.StatusInternalServerError, Server: true, Message: err.Error()}
		}
		fail(apiErr)
		return
	}
	if s.Faults.Roll(fault.ErrorAfterRate) {
		// The call took effect; its answer is lost.
		fail(internalError(svc.Protocol))
		return
	}
	req.writeOutput(w, out)
}

func (req *request) decode(in any) error {
	schema := req.svc.InputSchema(req.operation)
	switch req.svc.Protocol {
	case core.ProtocolQuery:
		return wire.DecodeQuery(req.form, in, schema)
	case core.ProtocolEC2Query:
		return wire.DecodeEC2Query(req.form, in, schema)
	case core.ProtocolRESTXML:
		return wire.DecodeREST(req.http, req.body, req.labels, in, schema)
	case core.ProtocolRESTJSON:
		return wire.DecodeRESTJSON(req.http, req.body, req.labels, in, schema)
	}
	return wire.DecodeJSON(req.body, in, schema)
}

// internalError is the HTTP 500 a service answers when it fails on its side: S3's
// InternalError, every other protocol's InternalFailure.
func internalError(p core.Protocol) *core.APIError {
	if p == core.ProtocolRESTXML {
		return &core.APIError{Code: "InternalError", Status: http.StatusInternalServerError, Server: true,
			Message: "We encountered an internal error. Please try again."}
	}
	return &core.APIError{Code: "InternalFailure", Status: http.StatusInternalServerError, Server: true,
		Message: "The request processing has failed because of an unknown error, exception or failure."}
}

func unknownOperation(svc *core.Service, op string) *core.APIError {
	if svc.Protocol == core.ProtocolRESTXML || svc.Protocol == core.ProtocolRESTJSON {
		if op == "" {
			return &core.APIError{Code: "MethodNotAllowed", Status: http.StatusMethodNotAllowed,
				Message: "The specified method is not allowed against this resource."}
		}
		return &core.APIError{Code: "NotImplemented", Status: http.StatusNotImplemented,
			Message: "The emulator does not implement " + op + "."}
	}
	if svc.Protocol == core.ProtocolQuery || svc.Protocol == core.ProtocolEC2Query {
		return core.Errorf("InvalidAction", "Could not find operation %s for version %s", op, svc.APIVersion)
	}
	return core.Errorf("UnknownOperationException", "operation %s is not supported by this endpoint", op)
}

func malformed(svc *core.Service, err error) *core.APIError {
	if svc.Protocol == core.ProtocolRESTJSON {
		return core.Errorf("SerializationException", "%v", err)
	}
	if svc.Protocol == core.ProtocolRESTXML {
		return core.Errorf("MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema: %v", err)
	}
	if svc.Protocol == core.ProtocolQuery || svc.Protocol == core.ProtocolEC2Query {
		return core.Errorf("MalformedInput", "%v", err)
	}
	return core.Errorf("SerializationException", "%v", err)
}

// signatureError is AWS's answer, in each protocol, to a request without a SigV4 Authorization
// header or with a malformed one.
func signatureError(p core.Protocol, sigErr error) *core.APIError {
	unsigned := sigErr == core.ErrUnsigned
	switch p {
	case core.ProtocolRESTXML:
		if unsigned {
			return &core.APIError{Code: "AccessDenied", Status: http.StatusForbidden, Message: "Access Denied"}
		}
		return &core.APIError{Code: "AuthorizationHeaderMalformed", Status: http.StatusBadRequest,
			Message: "The authorization header is malformed; " + sigErr.Error()}
	case core.ProtocolJSON10, core.ProtocolJSON11, core.ProtocolRESTJSON:
		if unsigned {
			return &core.APIError{Code: "MissingAuthenticationTokenException", QueryCode: "MissingAuthenticationToken",
				Status: http.StatusForbidden, Message: "Missing Authentication Token"}
		}
		return &core.APIError{Code: "IncompleteSignatureException", QueryCode: "IncompleteSignature",
			Status: http.StatusForbidden, Message: sigErr.Error()}
	}
	if unsigned {
		return &core.APIError{Code: "MissingAuthenticationToken", Status: http.StatusForbidden, Message: "Request is missing Authentication Token"}
	}
	return &core.APIError{Code: "IncompleteSignature", Status: http.StatusForbidden, Message: sigErr.Error()}
}
