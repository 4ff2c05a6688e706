package elbv2

import (
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// resourceName matches load balancer and target group names: 1 to 32 alphanumerics and
// hyphens, not beginning or ending with a hyphen.
var resourceName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,30}[A-Za-z0-9])?$`)

// checkName validates the name of a load balancer or target group (what: "Load balancer",
// "Target group").
func checkName(what string, name *string) (string, error) {
	n := aws.ToString(name)
	switch {
	case n == "":
		return "", validation("%s name is required", what)
	case len(n) > 32:
		return "", validation("%s name '%s' cannot be longer than '32' characters", what, n)
	case !resourceName.MatchString(n):
		return "", validation("%s name '%s' can only contain characters that are alphanumeric characters or hyphens(-) and cannot begin or end with a hyphen", what, n)
	}
	return n, nil
}

// oneOf returns v, or def when v is empty, and a ValidationError when v is not one of allowed.
func oneOf[T ~string](param string, v, def T, allowed ...T) (T, error) {
	if v == "" {
		return def, nil
	}
	if !slices.Contains(allowed, v) {
		names := make([]string, len(allowed))
		for i, a := range allowed {
			names[i] = string(a)
		}
		return "", validation("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]", v, param, strings.Join(names, ", "))
	}
	return v, nil
}

// inRange checks an optional integer parameter against its bounds.
func inRange(param string, v *int32, lo, hi int32) error {
	if v != nil && (*v < lo || *v > hi) {
		return validation("1 validation error detected: Value '%d' at '%s' failed to satisfy constraint: Member must have value between %d and %d", *v, param, lo, hi)
	}
	return nil
}

// checkPort checks a listener or target group port.
func checkPort(port *int32) error {
	if port == nil {
		return validation("A port must be specified")
	}
	return inRange("port", port, 1, 65535)
}

// sameSet reports whether two lists hold the same strings, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
