// Package lambda emulates AWS Lambda's function management over its restJson1 protocol:
// functions with AWS's validation (including that S3 code exists in the emulated S3), the
// Pending -> Active and InProgress -> Successful transitions on the simulation clock, conflicts
// while an update is in progress, and tags. Invocation is not emulated.
package lambda

import (
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a function stays Pending after creation, and an update
// InProgress, on the simulation clock by default.
const TransitionTime = time.Second

// Code is what Lambda needs of S3: whether a deployment package exists.
type Code interface {
	// ObjectError returns the S3 error code for reading bucket/key, or "" when it exists.
	ObjectError(bucket, key string) string
}

// Backend holds the functions of every account and region.
type Backend struct {
	clock     *core.Clock
	code      Code
	mu        sync.Mutex
	functions map[core.Scope]map[string]*function
	seq       int
}

// New returns an empty Lambda backend that checks deployment packages in code.
func New(clock *core.Clock, code Code) *Backend {
	return &Backend{clock: clock, code: code, functions: map[core.Scope]map[string]*function{}}
}

// Service describes Lambda to the router.
func (b *Backend) Service() *core.Service {
	return &core.Service{
		SigningName: "lambda",
		ID:          "Lambda",
		Protocol:    core.ProtocolRESTJSON,
		Model:       models.MustLoad("lambda"),
		Transition:  TransitionTime,
		Throttle:    &core.APIError{Code: "TooManyRequestsException", Status: http.StatusTooManyRequests, Message: "Rate exceeded"},
		Operations: map[string]core.Operation{
			"CreateFunction":              core.Op(b.createFunction),
			"GetFunction":                 core.Op(b.getFunction),
			"GetFunctionConfiguration":    core.Op(b.getFunctionConfiguration),
			"UpdateFunctionConfiguration": core.Op(b.updateFunctionConfiguration),
			"UpdateFunctionCode":          core.Op(b.updateFunctionCode),
			"DeleteFunction":              core.Op(b.deleteFunction),
			"ListFunctions":               core.Op(b.listFunctions),
			"TagResource":                 core.Op(b.tagResource),
			"UntagResource":               core.Op(b.untagResource),
			"ListTags":                    core.Op(b.listTags),
		},
		Dump: b.dump,
	}
}

func notFound(name string) *core.APIError {
	return core.NotFoundf("ResourceNotFoundException", "Function not found: %s", name)
}

// region returns the functions of the caller's account and region. The caller holds b.mu.
func (b *Backend) region(call *core.Call) map[string]*function {
	r := b.functions[call.Scope()]
	if r == nil {
		r = map[string]*function{}
		b.functions[call.Scope()] = r
	}
	return r
}

// lookup finds a function by name or ARN. The caller holds b.mu.
func (b *Backend) lookup(call *core.Call, nameOrARN *string) (*function, error) {
	n := aws.ToString(nameOrARN)
	for name, f := range b.region(call) {
		if name == n || f.cfg.FunctionArn != nil && *f.cfg.FunctionArn == n {
			f.settle(call.Now)
			return f, nil
		}
	}
	return nil, notFound(n)
}

func (b *Backend) listFunctions(call *core.Call, in *lambda.ListFunctionsInput) (*lambda.ListFunctionsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	names := make([]string, 0, len(b.region(call)))
	for name := range b.region(call) {
		names = append(names, name)
	}
	sort.Strings(names)
	limit := 50
	if in.MaxItems != nil {
		if *in.MaxItems < 1 || *in.MaxItems > 10000 {
			return nil, core.Errorf("ValidationException", "1 validation error detected: Value '%d' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and 10000", *in.MaxItems)
		}
		limit = int(*in.MaxItems)
	}
	start := sort.SearchStrings(names, aws.ToString(in.Marker))
	end := min(start+limit, len(names))
	out := &lambda.ListFunctionsOutput{Functions: []types.FunctionConfiguration{}}
	for _, name := range names[start:end] {
		f := b.region(call)[name]
		f.settle(call.Now)
		out.Functions = append(out.Functions, f.cfg)
	}
	if end < len(names) {
		out.NextMarker = aws.String(names[end])
	}
	return out, nil
}

func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	for scope, fns := range b.functions {
		for name, f := range fns {
			out[scope.Account+"/"+scope.Region+"/"+name] = map[string]any{"state": f.cfg.State, "runtime": f.cfg.Runtime, "tags": f.tags}
		}
	}
	return out
}
