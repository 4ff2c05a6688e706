package apigateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// restRootPath is the path of a REST API's root resource, which API Gateway makes with the API.
const restRootPath = "/"

// restDefaultTimeout is the integration timeout API Gateway applies when none is given, in
// milliseconds.
const restDefaultTimeout = 29000

// restMethod is one method of a REST API as the spec wants it: its authorization and its
// integration, after references are resolved.
type restMethod struct {
	auth       string
	kind       types.IntegrationType
	uri        string
	httpMethod string
	timeout    int32
}

// String returns the method's settings in one line, as the routes' fingerprint reads them.
func (m restMethod) String() string {
	return fmt.Sprintf("%s %s %s %s %d", m.auth, m.kind, m.httpMethod, m.uri, m.timeout)
}

// restRoutes are a REST API's methods by resource path and HTTP method.
type restRoutes map[string]map[string]restMethod

// desiredRESTRoutes returns the methods the spec's routes make: "GET /pets/{id}" is the method GET
// of the resource /pets/{id}; a Lambda function is a proxy integration (AWS_PROXY, POST to the
// function's invocation URI), a URL an HTTP proxy integration with the integration's method,
// the route's by default.
func (d *restDriver) desiredRESTRoutes(o *v1alpha1.APIGateway) restRoutes {
	out := restRoutes{}
	for _, r := range o.Spec.Routes {
		verb, path, _ := strings.Cut(r.RouteKey, " ")
		m := restMethod{auth: r.AuthorizationType, timeout: r.Integration.TimeoutMilliseconds}
		if m.auth == "" {
			m.auth = "NONE"
		}
		if m.timeout == 0 {
			m.timeout = restDefaultTimeout
		}
		if in := r.Integration; in.LambdaFunctionARN != "" {
			m.kind, m.httpMethod = types.IntegrationTypeAwsProxy, "POST"
			m.uri = d.lambdaURI(in.LambdaFunctionARN)
		} else {
			m.kind, m.httpMethod, m.uri = types.IntegrationTypeHttpProxy, in.Method, in.URL
			if m.httpMethod == "" {
				m.httpMethod = verb
			}
		}
		if out[path] == nil {
			out[path] = map[string]restMethod{}
		}
		out[path][verb] = m
	}
	return out
}

// paths returns every resource path the routes need, each path's prefixes included, without
// the root, shallowest first.
func (r restRoutes) paths() []string {
	set := map[string]bool{}
	for path := range r {
		for p := path; p != restRootPath; p = restParentPath(p) {
			set[p] = true
		}
	}
	out := slices.Collect(maps.Keys(set))
	slices.SortFunc(out, func(a, b string) int {
		if n := strings.Count(a, "/") - strings.Count(b, "/"); n != 0 {
			return n
		}
		return strings.Compare(a, b)
	})
	return out
}

// fingerprint returns a digest of the routes, which the description of the deployment made for
// them carries: a stage serves the spec's routes when its deployment carries their fingerprint.
func (r restRoutes) fingerprint() string {
	var lines []string
	for path, methods := range r {
		for verb, m := range methods {
			lines = append(lines, verb+" "+path+" "+m.String())
		}
	}
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:8])
}

// restParentPath returns the path of the resource above path: /pets for /pets/{id}, / for /pets.
func restParentPath(path string) string {
	i := strings.LastIndex(path, "/")
	if i <= 0 {
		return restRootPath
	}
	return path[:i]
}

// observedRESTMethod returns an existing method as restMethod, to be compared with the spec's.
func observedRESTMethod(m types.Method) restMethod {
	out := restMethod{auth: aws.ToString(m.AuthorizationType)}
	if it := m.MethodIntegration; it != nil {
		out.kind, out.uri, out.httpMethod, out.timeout = it.Type, aws.ToString(it.Uri), aws.ToString(it.HttpMethod), it.TimeoutInMillis
	}
	return out
}

// restResources reads every resource of the REST API id with its methods and their integrations:
// one GetResources call (embed=methods) per 500 resources.
func (d *restDriver) restResources(ctx context.Context, id string) ([]types.Resource, error) {
	var out []types.Resource
	p := apigateway.NewGetResourcesPaginator(d.rest, &apigateway.GetResourcesInput{RestApiId: aws.String(id), Embed: []string{"methods"}, Limit: aws.Int32(500)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, managed.Wrap(err, "get the resources of REST API %s", id)
		}
		out = append(out, page.Items...)
	}
	return out, nil
}

// restRouteCalls are the calls that bring a REST API's resources and methods in line with the
// routes, in the order they must be made.
type restRouteCalls struct {
	api     string            // the REST API's id
	ids     map[string]string // resource id by path, filled as resources are created
	drop    []string          // resources to delete, with the resources below them
	unput   [][2]string       // methods to delete: resource path, HTTP method
	create  []string          // resource paths to create, shallowest first
	methods [][2]string       // methods to put: resource path, HTTP method
	auth    [][2]string       // methods whose authorization to change
	put     [][2]string       // integrations to put
	want    restRoutes        // the methods the routes make
}

// empty reports whether the resources and methods already match the routes.
func (c *restRouteCalls) empty() bool {
	return len(c.drop)+len(c.unput)+len(c.create)+len(c.methods)+len(c.auth)+len(c.put) == 0
}

// planRESTRoutes compares the REST API's resources and methods with the routes and plans, as one
// change of "routes", what brings them in line: the resources the routes do not need deleted
// (the highest of each unneeded subtree: API Gateway deletes what is below it), the methods
// they do not name deleted, the missing resources created shallowest first, the missing
// methods put, a method's authorization updated, and each missing or different integration put
// (PutIntegration replaces it). It reports whether the routes matched.
func (d *restDriver) planRESTRoutes(api string, want restRoutes, have []types.Resource, plan *managed.Plan) bool {
	c := &restRouteCalls{api: api, ids: map[string]string{}, want: want}
	wantPaths := map[string]bool{restRootPath: true}
	for _, p := range want.paths() {
		wantPaths[p] = true
	}
	for _, res := range have {
		path := aws.ToString(res.Path)
		c.ids[path] = aws.ToString(res.Id)
		if !wantPaths[path] {
			if wantPaths[restParentPath(path)] {
				c.drop = append(c.drop, path)
			}
			continue
		}
		for _, verb := range slices.Sorted(maps.Keys(res.ResourceMethods)) {
			m, ok := want[path][verb]
			if !ok {
				c.unput = append(c.unput, [2]string{path, verb})
				continue
			}
			got := observedRESTMethod(res.ResourceMethods[verb])
			if got.auth != m.auth {
				c.auth = append(c.auth, [2]string{path, verb})
			}
			if got.kind != m.kind || got.uri != m.uri || got.httpMethod != m.httpMethod || got.timeout != m.timeout {
				c.put = append(c.put, [2]string{path, verb})
			}
		}
	}
	slices.Sort(c.drop)
	for _, path := range want.paths() {
		if _, ok := c.ids[path]; !ok {
			c.create = append(c.create, path)
		}
	}
	for _, path := range slices.Sorted(maps.Keys(want)) {
		var methods map[string]types.Method
		if i := slices.IndexFunc(have, func(r types.Resource) bool { return aws.ToString(r.Path) == path }); i >= 0 {
			methods = have[i].ResourceMethods
		}
		for _, verb := range slices.Sorted(maps.Keys(want[path])) {
			if _, ok := methods[verb]; !ok {
				c.methods = append(c.methods, [2]string{path, verb})
				c.put = append(c.put, [2]string{path, verb})
			}
		}
	}
	if c.empty() {
		return true
	}
	plan.Add("routes", func(ctx context.Context) error { return d.applyRESTRoutes(ctx, c) })
	return false
}

// applyRESTRoutes makes the calls c plans, in order.
func (d *restDriver) applyRESTRoutes(ctx context.Context, c *restRouteCalls) error {
	api := aws.String(c.api)
	for _, path := range c.drop {
		if _, err := d.rest.DeleteResource(ctx, &apigateway.DeleteResourceInput{RestApiId: api, ResourceId: aws.String(c.ids[path])}); err != nil {
			return managed.Wrap(err, "delete resource %s of REST API %s", path, c.api)
		}
	}
	for _, m := range c.unput {
		if _, err := d.rest.DeleteMethod(ctx, &apigateway.DeleteMethodInput{RestApiId: api, ResourceId: aws.String(c.ids[m[0]]), HttpMethod: aws.String(m[1])}); err != nil {
			return managed.Wrap(err, "delete method %s %s of REST API %s", m[1], m[0], c.api)
		}
	}
	for _, path := range c.create {
		part := path[strings.LastIndex(path, "/")+1:]
		out, err := d.rest.CreateResource(ctx, &apigateway.CreateResourceInput{RestApiId: api, ParentId: aws.String(c.ids[restParentPath(path)]), PathPart: aws.String(part)})
		if err != nil {
			return managed.Wrap(err, "create resource %s of REST API %s", path, c.api)
		}
		c.ids[path] = aws.ToString(out.Id)
	}
	for _, m := range c.methods {
		_, err := d.rest.PutMethod(ctx, &apigateway.PutMethodInput{RestApiId: api, ResourceId: aws.String(c.ids[m[0]]), HttpMethod: aws.String(m[1]),
			AuthorizationType: aws.String(c.want[m[0]][m[1]].auth)})
		if err != nil {
			return managed.Wrap(err, "put method %s %s of REST API %s", m[1], m[0], c.api)
		}
	}
	for _, m := range c.auth {
		_, err := d.rest.UpdateMethod(ctx, &apigateway.UpdateMethodInput{RestApiId: api, ResourceId: aws.String(c.ids[m[0]]), HttpMethod: aws.String(m[1]),
			PatchOperations: []types.PatchOperation{patchReplace("/authorizationType", c.want[m[0]][m[1]].auth)}})
		if err != nil {
			return managed.Wrap(err, "update the authorization of method %s %s of REST API %s", m[1], m[0], c.api)
		}
	}
	for _, m := range c.put {
		w := c.want[m[0]][m[1]]
		_, err := d.rest.PutIntegration(ctx, &apigateway.PutIntegrationInput{RestApiId: api, ResourceId: aws.String(c.ids[m[0]]), HttpMethod: aws.String(m[1]),
			Type: w.kind, Uri: aws.String(w.uri), IntegrationHttpMethod: aws.String(w.httpMethod), TimeoutInMillis: aws.Int32(w.timeout)})
		if err != nil {
			return managed.Wrap(err, "put the integration of method %s %s of REST API %s", m[1], m[0], c.api)
		}
	}
	return nil
}
