// Package lambda emulates AWS Lambda's function management over its restJson1 protocol:
// functions from ZIP archives (uploaded, or read from the emulated S3) and from container images,
// with AWS's validation; the Pending -> Active and InProgress -> Successful transitions on the
// simulation clock; conflicts while an update is in progress and RevisionId preconditions;
// VPC configurations checked against the emulated EC2 (the subnets and security groups must
// exist and share one VPC, which is reported as VpcId); published versions; reserved
// concurrency; function URLs; resource-based policies; aliases (a version and an optional
// weighted second version); event source mappings (Creating ->
// Enabled or Disabled, Updating, Deleting, their SQS queues and DynamoDB streams checked
// against the emulated services, and the function's execution role, when the emulated IAM
// knows it, checked for the permissions to read the source); and tags, of functions and of
// mappings. Requests up to Lambda's 69905067 bytes are read, enough for a 50 MB package
// uploaded directly. Invocation, code signing and layers themselves are not emulated:
// GetFunctionCodeSigningConfig reports no configuration, as AWS does for a function without one.
package lambda

import (
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a function or a published version stays Pending after creation,
// and an update InProgress, on the simulation clock by default.
const TransitionTime = time.Second

// Code is what Lambda needs of S3: the deployment packages functions are created from.
type Code interface {
	// Object returns the body of the object bucket/key, of its version when version is not
	// empty, or the S3 error code reading it gives ("NoSuchBucket", "NoSuchKey",
	// "NoSuchVersion").
	Object(bucket, key, version string) (body []byte, errCode string)
}

// Backend holds the functions of every account and region.
type Backend struct {
	clock   *core.Clock
	code    Code
	network core.Subnets
	sources sources
	state   *core.Backend[map[string]*function] // the functions of each region, by name
	tags    *core.Tags                          // the functions', by unqualified ARN, and the mappings', by ARN
	seq     int                                 // numbers revision and URL ids
	// mappings are the event source mappings of every account and region, by UUID, under
	// state's lock.
	mappings map[string]*mapping
}

// New returns an empty Lambda backend that reads deployment packages from code, checks the
// subnets and security groups of functions' VPC configurations against network, and the
// sources of event source mappings against queues and streams, and what functions' execution
// roles may read against roles.
func New(clock *core.Clock, code Code, network core.Subnets, queues Queues, streams Streams, roles Roles) *Backend {
	return &Backend{clock: clock, code: code, network: network, sources: sources{queues, streams, roles}, tags: core.NewTags(tagRules),
		mappings: map[string]*mapping{},
		state:    core.NewBackend(func(core.Scope) map[string]*function { return map[string]*function{} })}
}

// Service describes Lambda to the router.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("lambda", "Lambda", core.ProtocolRESTJSON, models.MustLoad("lambda"),
		&core.APIError{Code: "TooManyRequestsException", Status: http.StatusTooManyRequests, Message: "Rate exceeded"})
	s.MaxBody, s.TooLarge = maxRequest-1, tooLarge
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// listFunctions lists the functions of the call's region by name, their unpublished ($LATEST)
// configuration, MaxItems (1 to 10000, default 50) at a time.
func (b *Backend) listFunctions(call *core.Call, in *lambda.ListFunctionsInput) (*lambda.ListFunctionsOutput, error) {
	return listed(b, in.MaxItems, 50, 10000, func(size int) (*lambda.ListFunctionsOutput, error) {
		functions := b.state.Of(call)
		list, next, err := pageOfKeys(core.SortedKeys(functions), in.Marker, size, func(name string) types.FunctionConfiguration {
			b.settle(call, functions[name])
			return functions[name].cfg
		})
		return &lambda.ListFunctionsOutput{Functions: list, NextMarker: next}, err
	})
}

// pageOf returns the page of all that a List request's Marker and page size select, and the
// NextMarker of the page after it (nil after the last), or the error for an unknown Marker.
func pageOf[T any](all []T, marker *string, size int) ([]T, *string, error) {
	page, next, ok := core.Page(all, aws.ToString(marker), size)
	if !ok {
		return nil, nil, invalidParameter("Invalid marker: %s", aws.ToString(marker))
	}
	if next == "" {
		return page, nil, nil
	}
	return page, aws.String(next), nil
}

// pageOfKeys returns what value makes of each key on the page of keys that a List request's
// Marker and page size select (an empty list for none), and the NextMarker of the page after it,
// or the error for an unknown Marker.
func pageOfKeys[T any](keys []string, marker *string, size int, value func(key string) T) ([]T, *string, error) {
	page, next, err := pageOf(keys, marker, size)
	return core.PageValues(page, next, err, value)
}

// maxItems checks a MaxItems parameter against its range 1..limit and returns the page size it
// asks for, def when absent.
func maxItems(v *int32, def, limit int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < 1 || int(*v) > limit {
		return 0, validationf("Value '%d' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and %d", *v, limit)
	}
	return int(*v), nil
}

// listed checks a List request's MaxItems (1 to limit, default def) and runs list on the page
// size it gives, holding the backend's mutex.
func listed[O any](b *Backend, requested *int32, def, limit int, list func(size int) (*O, error)) (*O, error) {
	return core.Holding(b.state, func() (int, error) { return maxItems(requested, def, limit) }, list)
}

// listedOf checks a List request's MaxItems (1 to limit, default def) and runs list, holding the
// backend's mutex, on the function the request names, as withUnqualified finds it, and the page
// size.
func listedOf[O any](b *Backend, call *core.Call, nameOrARN *string, requested *int32, def, limit int, list func(f *function, size int) (*O, error)) (*O, error) {
	size, err := maxItems(requested, def, limit)
	if err != nil {
		return nil, err
	}
	return withUnqualified(b, call, nameOrARN, func(f *function) (*O, error) { return list(f, size) })
}

// dump returns the functions of every account and region, for debugging.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, functions := range b.state.All() {
		for name, f := range functions {
			out[scope.Account+"/"+scope.Region+"/"+name] = map[string]any{"state": f.cfg.State, "runtime": f.cfg.Runtime,
				"versions": len(f.versions), "tags": b.tags.Map(*f.cfg.FunctionArn)}
		}
	}
	b.state.Lock()
	defer b.state.Unlock()
	for id, m := range b.mappings {
		out[m.scope.Account+"/"+m.scope.Region+"/event-source-mapping:"+id] = map[string]any{"state": m.cfg.State,
			"function": m.cfg.FunctionArn, "source": m.cfg.EventSourceArn}
	}
	return out
}
