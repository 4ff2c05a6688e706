package core

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"

	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// Protocol is an AWS protocol family.
type Protocol int

const (
	// ProtocolQuery is awsQuery: form-encoded requests, XML responses (STS, SNS, IAM, RDS).
	ProtocolQuery Protocol = iota
	// ProtocolJSON10 is awsJson 1.0 (SQS, DynamoDB).
	ProtocolJSON10
	// ProtocolJSON11 is awsJson 1.1.
	ProtocolJSON11
	// ProtocolEC2Query is ec2Query: form-encoded requests with EC2's naming, XML responses
	// without a result wrapper, and EC2's <Response><Errors> envelope.
	ProtocolEC2Query
	// ProtocolRESTJSON is restJson1: operations routed by method and path, members bound to the
	// URI, query and headers, and a JSON body (Lambda, API Gateway, EKS).
	ProtocolRESTJSON
	// ProtocolRESTXML is restXml: operations routed by method and path, members bound to the
	// URI, query, headers and an XML or raw body (S3).
	ProtocolRESTXML
)

// Service is one emulated AWS service.
type Service struct {
	// SigningName is the SigV4 signing name that routes requests here, for example "sqs".
	SigningName string
	// PathPrefix, when set, routes the requests signed with SigningName whose path starts with
	// it here rather than to another service of the same signing name (API Gateway v2's "/v2/"
	// beside v1, both signed "apigateway").
	PathPrefix string
	// ID names the service in counters, faults and errors, for example "SQS".
	ID string
	// Protocol is the service's wire protocol.
	Protocol Protocol
	// TargetPrefix is the X-Amz-Target prefix of JSON protocols, for example "AmazonSQS".
	TargetPrefix string
	// XMLNamespace is the namespace of query protocol responses.
	XMLNamespace string
	// APIVersion is the query protocol Version parameter, which routes unsigned query
	// requests (STS AssumeRoleWithWebIdentity).
	APIVersion string
	// QueryCompatible is true for JSON services that also send the legacy awsQuery error code
	// in the x-amzn-query-error header (SQS).
	QueryCompatible bool
	// CRC32 is true for services that send the CRC32 of every response body in an
	// x-amz-crc32 header, which their SDK clients check (DynamoDB).
	CRC32 bool
	// Errors is the SDK's registry of the service's error shapes; a query-compatible service
	// takes each error's legacy code from its awsQueryError trait there.
	Errors *smithy.TypeRegistry
	// Unsigned lists the operations AWS accepts without a signature.
	Unsigned map[string]bool
	// Model is the API model of a service whose SDK module has no schemas of its own; its
	// shapes give the wire names. Nil for services with SDK schemas.
	Model *models.Model
	// WrappedErrors is true for REST-XML services that send errors inside an <ErrorResponse>
	// element with the fault's Type, as every REST-XML service but S3 does (CloudFront).
	WrappedErrors bool
	// ScalarDocuments names, for REST operations whose response document is one member's value
	// alone (S3's GetBucketLocation answers <LocationConstraint>eu-west-1</LocationConstraint>),
	// that member.
	ScalarDocuments map[string]string
	// Operations by name.
	Operations map[string]Operation
	// Transition is how long the service's asynchronous lifecycles (creating -> active) take on
	// the simulation clock, unless the server's options say otherwise.
	Transition time.Duration
	// Throttle is the error the service returns when throttled.
	Throttle *APIError
	// MaxBody is the largest request body, in bytes, the router accepts for the service; zero
	// means DefaultMaxBody. The router reads no more than that of a body.
	MaxBody int64
	// TooLarge returns the error the service answers a larger body with, naming the operation
	// when the router can tell it from the method and path or the X-Amz-Target header. Nil
	// gives a generic HTTP 413.
	TooLarge func(operation string) *APIError
	// Dump returns the service's state for debugging.
	Dump func() any
}

// DefaultMaxBody is the largest request body the router accepts for a service that does not set
// MaxBody: 8 MiB, above SQS's 1 MiB messages and the other services' largest documents.
const DefaultMaxBody = 8 << 20

// BodyLimit returns the largest request body the router accepts for the service, or for a
// request it cannot attribute to a service yet (s nil).
func (s *Service) BodyLimit() int64 {
	if s == nil || s.MaxBody <= 0 {
		return DefaultMaxBody
	}
	return s.MaxBody
}

// Operation is one emulated operation.
type Operation struct {
	// NewInput returns a new pointer to the SDK input struct.
	NewInput func() any
	// NewOutput returns a new pointer to the SDK output struct.
	NewOutput func() any
	// Handle runs the operation and returns a pointer to the SDK output struct.
	Handle func(call *Call, in any) (any, error)
}

// Op builds an Operation from a handler typed with the SDK's input and output structs.
func Op[I, O any](h func(*Call, *I) (*O, error)) Operation {
	return Operation{
		NewInput:  func() any { return new(I) },
		NewOutput: func() any { return new(O) },
		Handle: func(call *Call, in any) (any, error) {
			out, err := h(call, in.(*I))
			if err != nil {
				return nil, err
			}
			return out, nil
		},
	}
}

// Call is one request as a service handler sees it.
type Call struct {
	// Context is the request's context.
	Context context.Context
	// Account is the caller's account, from the access key.
	Account string
	// Region is the region of the request's SigV4 scope.
	Region string
	// AccessKey is the caller's access key ID.
	AccessKey string
	// RequestID identifies the request.
	RequestID string
	// Now is the simulation clock's time at the start of the request.
	Now time.Time
	// Host is the Host the request was sent to, for building URLs such as queue URLs.
	Host string
	// Scheme is "http" or "https".
	Scheme string
	// Fault is the fault in force for this call; services that simulate eventual consistency
	// read its ReadAfterCreateDelay.
	Fault Fault
	// Transition is how long a lifecycle this call starts takes on the simulation clock.
	Transition time.Duration
}

// Scope is the account and region a resource lives in.
type Scope struct {
	Account, Region string
}

// Scope returns the call's account and region.
func (c *Call) Scope() Scope { return Scope{Account: c.Account, Region: c.Region} }

// ContentType returns the Content-Type of the service's JSON responses.
func (s *Service) ContentType() string {
	if s.Protocol == ProtocolRESTJSON {
		return "application/json"
	}
	if s.Protocol == ProtocolJSON11 {
		return "application/x-amz-json-1.1"
	}
	return "application/x-amz-json-1.0"
}

// InputSchema returns the model's schema of an operation's input, or nil when the service has no
// model (its SDK types carry their own schemas).
func (s *Service) InputSchema(op string) *smithy.Schema {
	if s.Model == nil {
		return nil
	}
	return s.Model.InputSchema(op)
}

// OutputSchema returns the model's schema of an operation's output, or nil.
func (s *Service) OutputSchema(op string) *smithy.Schema {
	if s.Model == nil {
		return nil
	}
	return s.Model.OutputSchema(op)
}

// QueryErrorCode returns the legacy awsQuery code of the error shape named code, from its
// awsQueryError trait in the SDK's registry, or code itself when it declares none.
func (s *Service) QueryErrorCode(code string) string {
	if s.Errors == nil {
		return code
	}
	for id, entry := range s.Errors.Entries {
		if strings.HasSuffix(id, "#"+code) {
			if t, ok := smithy.SchemaTrait[*traits.AWSQueryError](entry.Schema); ok && t.ErrorCode != "" {
				return t.ErrorCode
			}
		}
	}
	return code
}

// QueryService returns the description of an awsQuery service signed as signingName and named id
// in counters and errors, whose API version routes its unsigned requests and names its XML
// namespace (http://<namespace>.amazonaws.com/doc/<version>/), throttled with Throttling (HTTP
// 400) as AWS's query services are. Declare adds its operations and the rest.
func QueryService(signingName, id, namespace, version string, model *models.Model) *Service {
	return &Service{SigningName: signingName, ID: id, Protocol: ProtocolQuery, APIVersion: version, Model: model,
		XMLNamespace: "http://" + namespace + ".amazonaws.com/doc/" + version + "/",
		Throttle:     &APIError{Code: "Throttling", Message: "Rate exceeded", Status: http.StatusBadRequest}}
}

// JSONService returns the description of an awsJson 1.1 service signed as signingName and named
// id in counters and errors, whose X-Amz-Target prefix is target, throttled with
// ThrottlingException (HTTP 400); an awsJson 1.0 service sets its Protocol to ProtocolJSON10.
// Declare adds its operations and the rest.
func JSONService(signingName, id, target string) *Service {
	return &Service{SigningName: signingName, ID: id, Protocol: ProtocolJSON11, TargetPrefix: target,
		Throttle: &APIError{Code: "ThrottlingException", Status: http.StatusBadRequest, Message: "Rate exceeded"}}
}

// Declare gives the service how long its asynchronous lifecycles take on the simulation clock
// (zero for a service without any), its state dump and its operations, from one map or from
// several (its own and its tag operations), and returns it: the last step of every service's
// declaration, after its protocol's constructor (QueryService, JSONService or RESTService) and
// whatever the service sets differently from that protocol's defaults. It panics when two maps
// declare one operation, a mistake in the service's declaration.
func (s *Service) Declare(transition time.Duration, dump func() any, operations ...map[string]Operation) *Service {
	s.Transition, s.Dump, s.Operations = transition, dump, map[string]Operation{}
	for _, ops := range operations {
		for name, op := range ops {
			if _, dup := s.Operations[name]; dup {
				panic(fmt.Sprintf("core: %s declares operation %s twice", s.ID, name))
			}
			s.Operations[name] = op
		}
	}
	return s
}

// RESTService returns the description of a REST service (restJson1 or restXml, as protocol
// says) signed as signingName and named id in counters and errors, whose wire names come from
// model, throttled with throttle. Declare adds its operations and the rest.
func RESTService(signingName, id string, protocol Protocol, model *models.Model, throttle *APIError) *Service {
	return &Service{SigningName: signingName, ID: id, Protocol: protocol, Model: model, Throttle: throttle}
}
