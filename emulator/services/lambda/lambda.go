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
	functions *core.Regions[map[string]*function] // by name
	tags      *core.Tags                          // the functions', by ARN
	seq       int
}

// New returns an empty Lambda backend that checks deployment packages in code.
func New(clock *core.Clock, code Code) *Backend {
	return &Backend{clock: clock, code: code, tags: core.NewTags(tagRules),
		functions: core.NewRegions(func(core.Scope) map[string]*function { return map[string]*function{} })}
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

// lookup finds a function by name or ARN. The caller holds b.mu.
func (b *Backend) lookup(call *core.Call, nameOrARN *string) (*function, error) {
	n := aws.ToString(nameOrARN)
	for name, f := range b.functions.Of(call) {
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
	functions := b.functions.Of(call)
	names := core.SortedKeys(functions)
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
		f := functions[name]
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
	for scope, functions := range b.functions.All() {
		for name, f := range functions {
			out[scope.Account+"/"+scope.Region+"/"+name] = map[string]any{"state": f.cfg.State, "runtime": f.cfg.Runtime, "tags": b.tags.Map(*f.cfg.FunctionArn)}
		}
	}
	return out
}
