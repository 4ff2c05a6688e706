package apigateway

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"
)

// patchOp is one JSON Patch operation of an update, its path split on "/" with "~1" and "~0"
// unescaped in each part.
type patchOp struct {
	op    types.Op
	path  string
	parts []string
	value *string
}

// patch applies the operations of an update in order through apply, which changes the
// resource for one operation or returns the error for a path it does not take.
func patch(ops []types.PatchOperation, apply func(p patchOp) error) error {
	for _, o := range ops {
		path := aws.ToString(o.Path)
		if !strings.HasPrefix(path, "/") {
			return BadRequest("Invalid patch path '%s'", path)
		}
		var parts []string
		for _, part := range strings.Split(path[1:], "/") {
			parts = append(parts, strings.NewReplacer("~1", "/", "~0", "~").Replace(part))
		}
		if err := apply(patchOp{op: o.Op, path: path, parts: parts, value: o.Value}); err != nil {
			return err
		}
	}
	return nil
}

// invalidPath is the answer to an operation on a path the resource does not take.
func (p patchOp) invalidPath() error {
	return BadRequest("Invalid patch path '%s' specified for op '%s'", p.path, p.op)
}

// str returns the value as a string, nil for a remove.
func (p patchOp) str() *string {
	if p.op == types.OpRemove {
		return nil
	}
	return p.value
}

// boolean returns the value as a boolean, or BadRequestException.
func (p patchOp) boolean() (bool, error) {
	v, err := strconv.ParseBool(aws.ToString(p.value))
	if err != nil && p.op != types.OpRemove {
		return false, BadRequest("Invalid value '%s' for path '%s': expected a boolean", aws.ToString(p.value), p.path)
	}
	return v, nil
}

// number returns the value as a number, or BadRequestException.
func (p patchOp) number() (float64, error) {
	v, err := strconv.ParseFloat(aws.ToString(p.value), 64)
	if err != nil {
		return 0, BadRequest("Invalid value '%s' for path '%s': expected a number", aws.ToString(p.value), p.path)
	}
	return v, nil
}

// integer returns the value as a whole number (a number's integer part, as API Gateway takes it),
// or BadRequestException.
func (p patchOp) integer() (int32, error) {
	v, err := p.number()
	return int32(v), err
}

// set stores in *dst the value parse makes of the operation's value, or returns parse's error
// and leaves *dst alone.
func set[T any](dst *T, parse func() (T, error)) error {
	v, err := parse()
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// setEntry adds, replaces or removes the entry of a string map the operation's last path
// part names.
func (p patchOp) setEntry(m map[string]string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	key := p.parts[len(p.parts)-1]
	if p.op == types.OpRemove {
		delete(m, key)
	} else {
		m[key] = aws.ToString(p.value)
	}
	return m
}
