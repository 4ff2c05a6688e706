package apigateway

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
)

// pathRouteKey is a "METHOD /path" route key: each segment literal or a {parameter}, the last
// one possibly greedy ({proxy+}).
var pathRouteKey = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ANY) (/|(/([A-Za-z0-9._~:@!$&'()*,;=-]+|\{[A-Za-z0-9._-]+\+?\}))+)$`)

// webSocketKeys are the route keys every WebSocket API knows; others are custom keys.
var webSocketKeys = map[string]bool{"$connect": true, "$disconnect": true, "$default": true}

// validate checks what admission cannot: route keys against the protocol, REST paths that API
// Gateway could not build as a resource tree, and the fields one protocol does not take.
func validate(o *v1alpha1.APIGateway) error {
	s := &o.Spec
	for i, r := range s.Routes {
		if err := validateRoute(s.ProtocolType, r); err != nil {
			return fmt.Errorf("spec.routes[%d] (%q): %w", i, r.RouteKey, err)
		}
	}
	if s.ProtocolType == v1alpha1.ProtocolREST {
		if err := validateTree(s.Routes); err != nil {
			return err
		}
		if len(s.Stages) > 0 && len(s.Routes) == 0 {
			return fmt.Errorf("spec.stages serve a deployment of the routes, and a REST API with no route cannot be deployed: add a route, or remove the stages")
		}
	}
	for i, st := range s.Stages {
		if st.Name == "$default" && s.ProtocolType != v1alpha1.ProtocolHTTP {
			return fmt.Errorf("spec.stages[%d]: the $default stage belongs to HTTP APIs only; name the stage, for example prod", i)
		}
	}
	if s.CustomDomain != nil && len(s.Stages) == 0 {
		return fmt.Errorf("spec.customDomain serves a stage, and spec.stages is empty: add a stage")
	}
	return nil
}

// validateRoute checks one route's key and integration against the protocol.
func validateRoute(protocol string, r v1alpha1.Route) error {
	in := r.Integration
	switch protocol {
	case v1alpha1.ProtocolWebSocket:
		if strings.HasPrefix(r.RouteKey, "$") && !webSocketKeys[r.RouteKey] {
			return fmt.Errorf("a WebSocket route key starting with $ must be $connect, $disconnect or $default")
		}
		if r.AuthorizationType == "AWS_IAM" && r.RouteKey != "$connect" {
			return fmt.Errorf("on a WebSocket API only the $connect route may require authorization")
		}
	case v1alpha1.ProtocolHTTP:
		if r.RouteKey != "$default" && !pathRouteKey.MatchString(r.RouteKey) {
			return fmt.Errorf(`an HTTP API route key is "$default" or "METHOD /path", for example "GET /pets/{id}"`)
		}
	default:
		if !pathRouteKey.MatchString(r.RouteKey) {
			return fmt.Errorf(`a REST API route key is "METHOD /path", for example "GET /pets/{id}"`)
		}
	}
	if in.PayloadFormatVersion != "" && (protocol != v1alpha1.ProtocolHTTP || in.LambdaFunctionARN == "" && in.LambdaFunctionRef == nil) {
		return fmt.Errorf("payloadFormatVersion applies to Lambda integrations of HTTP APIs only")
	}
	if in.TimeoutMilliseconds > 29000 && protocol != v1alpha1.ProtocolHTTP {
		return fmt.Errorf("timeoutMilliseconds is at most 29000 for REST and WebSocket APIs")
	}
	if greedy := strings.Index(r.RouteKey, "+}"); greedy >= 0 && greedy != len(r.RouteKey)-2 {
		return fmt.Errorf("a greedy path parameter ({name+}) must be the path's last segment")
	}
	return nil
}

// validateTree checks that a REST API's paths make one resource tree: at each level the
// parameter segments of sibling paths have one name, as a resource has one parameter child.
func validateTree(routes []v1alpha1.Route) error {
	params := map[string]string{} // parent path -> its parameter child's segment
	for _, r := range routes {
		_, path, _ := strings.Cut(r.RouteKey, " ")
		parent := ""
		for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
			if strings.HasPrefix(seg, "{") {
				if other, ok := params[parent]; ok && other != seg {
					return fmt.Errorf("spec.routes: paths %s/%s and %s/%s differ only in the parameter's name, and a REST API resource has one parameter child: use one name", parent, other, parent, seg)
				}
				params[parent] = seg
			}
			parent += "/" + seg
		}
	}
	return nil
}
