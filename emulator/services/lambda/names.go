package lambda

import (
	"net/http"
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// functionRef matches what a FunctionName parameter may hold (AWS Lambda API Reference, for
// example GetFunction): a name, a partial ARN (123456789012:function:my-function) or a full
// ARN, each with an optional ":qualifier" (a version, $LATEST or an alias).
var functionRef = regexp.MustCompile(`^(?:arn:(?:aws[a-zA-Z-]*)?:lambda:)?(?:([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d):)?(?:(\d{12}):)?(?:function:)?([a-zA-Z0-9-_]+)(?::(\$LATEST|[a-zA-Z0-9-_]+))?$`)

// functionRefPattern is functionRef as AWS's validation messages spell it.
const functionRefPattern = `(arn:(aws[a-zA-Z-]*)?:lambda:)?([a-z]{2}(-gov)?-[a-z]+-\d{1}:)?(\d{12}:)?(function:)?([a-zA-Z0-9-_]+)(:(\$LATEST|[a-zA-Z0-9-_]+))?`

// target is the function, and the version or alias of it, that a request names.
type target struct {
	// name is the function's name.
	name string
	// qualifier is "" for the function itself, "$LATEST", a version number or an alias name.
	qualifier string
	// elsewhere is true when an ARN names another account or region than the call's.
	elsewhere bool
}

// arn returns the ARN of t in the call's account and region, qualified when t is.
func (t target) arn(call *core.Call) string {
	arn := call.Scope().ARN("lambda", "function:"+t.name)
	if t.qualifier != "" {
		arn += ":" + t.qualifier
	}
	return arn
}

// parseTarget reads a FunctionName parameter and the Qualifier parameter that goes with it, if
// the operation has one. A qualifier in both places must agree, as Lambda requires.
func parseTarget(call *core.Call, nameOrARN, qualifier *string) (target, error) {
	s := aws.ToString(nameOrARN)
	m := functionRef.FindStringSubmatch(s)
	if m == nil || len(m[3]) > 64 || len(s) > 170 {
		return target{}, validationf("Value '%s' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern: %s", s, functionRefPattern)
	}
	t := target{name: m[3], qualifier: m[4],
		elsewhere: m[1] != "" && m[1] != call.Region || m[2] != "" && m[2] != call.Account}
	if q := aws.ToString(qualifier); q != "" {
		if t.qualifier != "" && t.qualifier != q {
			return target{}, invalidParameter("The derived qualifier from the function name does not match the specified qualifier.")
		}
		t.qualifier = q
	}
	return t, nil
}

// functionNotFound is Lambda's answer for a function, version or alias that does not exist.
func functionNotFound(call *core.Call, t target) *core.APIError {
	return core.NotFoundf("ResourceNotFoundException", "Function not found: %s", t.arn(call))
}

// find returns the function t names, whatever its qualifier, with its transitions settled.
// The caller holds the backend's lock.
func (b *Backend) find(call *core.Call, t target) (*function, error) {
	f, ok := b.state.Of(call)[t.name]
	if !ok || t.elsewhere {
		return nil, functionNotFound(call, target{name: t.name})
	}
	b.settle(call, f)
	return f, nil
}

// withUnqualified runs f, holding the backend's lock, on the function nameOrARN names without a
// qualifier (unqualified), and returns f's answer or the lookup's error.
func withUnqualified[O any](b *Backend, call *core.Call, nameOrARN *string, f func(*function) (*O, error)) (*O, error) {
	return core.Holding(b.state, func() (*function, error) { return b.unqualified(call, nameOrARN) }, f)
}

// unqualified returns the function a request names for an operation on the function as a
// whole (updates, concurrency, tags), which takes no version or alias. The caller holds the
// backend's lock.
func (b *Backend) unqualified(call *core.Call, nameOrARN *string) (*function, error) {
	t, err := parseTarget(call, nameOrARN, nil)
	if err != nil {
		return nil, err
	}
	if t.qualifier != "" {
		// The API reference does not say how Lambda answers a qualified name here; the emulator
		// refuses it with InvalidParameterValueException, as moto does.
		return nil, &core.APIError{Code: "InvalidParameterValueException", Status: http.StatusBadRequest,
			Message: "Unsupported qualifier for this operation: " + aws.ToString(nameOrARN)}
	}
	return b.find(call, t)
}
