package apigateway

import (
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// resource is one resource of a REST API with its methods.
type resource struct {
	cfg     types.Resource           // but for its methods
	methods map[string]*types.Method // by HTTP method, each with its integration
}

// newResource returns a new resource under parent (nil for the root "/") with the path part.
func newResource(parent *resource, part string) *resource {
	res := &resource{methods: map[string]*types.Method{}}
	res.cfg = types.Resource{Id: aws.String(core.LowerAlnumID(10)), Path: aws.String("/")}
	if parent != nil {
		res.cfg = types.Resource{Id: aws.String(core.LowerAlnumID(6)), ParentId: parent.cfg.Id, PathPart: aws.String(part),
			Path: aws.String(strings.TrimSuffix(aws.ToString(parent.cfg.Path), "/") + "/" + part)}
	}
	return res
}

// id returns the resource's id.
func (res *resource) id() string { return aws.ToString(res.cfg.Id) }

// view returns the resource as GetResources shows it: its methods only when embedded.
func (res *resource) view(embed bool) types.Resource {
	out := res.cfg
	if len(res.methods) > 0 {
		out.ResourceMethods = map[string]types.Method{}
		for verb, m := range res.methods {
			if embed {
				out.ResourceMethods[verb] = *m
			} else {
				out.ResourceMethods[verb] = types.Method{}
			}
		}
	}
	return out
}

// pathPart is the form of a resource's path part: letters, digits and -._:~, or a path
// parameter {name}, or a greedy {name+}.
var pathPart = regexp.MustCompile(`^([A-Za-z0-9._:~-]+|\{[A-Za-z0-9._-]+\+?\})$`)

// resource returns the resource a request names, or NotFoundException.
func (r *region) resource(call *core.Call, apiID, id *string) (*restAPI, *resource, error) {
	a, err := r.lookup(call, apiID)
	return Member(a, err, func(a *restAPI) map[string]*resource { return a.resources }, id, NotFound(call, "Resource", aws.ToString(id)))
}

func (b *Backend) createResource(call *core.Call, in *apigateway.CreateResourceInput) (*apigateway.CreateResourceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateResourceOutput, error) {
		a, parent, err := r.resource(call, in.RestApiId, in.ParentId)
		if err != nil {
			return nil, err
		}
		part := aws.ToString(in.PathPart)
		if !pathPart.MatchString(part) {
			return nil, BadRequest("Resource's path part only allow a-zA-Z0-9._- and curly braces at the beginning and the end and an optional plus sign before the closing brace.")
		}
		for _, sib := range a.resources {
			if aws.ToString(sib.cfg.ParentId) == parent.id() && aws.ToString(sib.cfg.PathPart) == part {
				return nil, Conflict("Another resource with the same parent already has this name: %s", part)
			}
		}
		res := newResource(parent, part)
		a.resources[res.id()] = res
		out := &apigateway.CreateResourceOutput{}
		view := res.view(true)
		core.Fill(out, &view)
		return out, nil
	})
}

// getResource answers GetResource with the resource a request names, its methods embedded.
func (b *Backend) getResource(call *core.Call, in *apigateway.GetResourceInput) (*apigateway.GetResourceOutput, error) {
	return Read[apigateway.GetResourceOutput](b.state, call, func(r *region) (*types.Resource, error) {
		_, res, err := r.resource(call, in.RestApiId, in.ResourceId)
		return View(res, err, func(res *resource) *types.Resource { return ptr(res.view(true)) })
	})
}

func (b *Backend) getResources(call *core.Call, in *apigateway.GetResourcesInput) (*apigateway.GetResourcesOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.GetResourcesOutput, error) {
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		embed := false
		for _, e := range in.Embed {
			embed = embed || e == "methods"
		}
		byPath := map[string]*resource{}
		for _, res := range a.resources {
			byPath[aws.ToString(res.cfg.Path)] = res
		}
		var items []types.Resource
		for _, path := range core.SortedKeys(byPath) {
			items = append(items, byPath[path].view(embed))
		}
		items, next, err := page(items, in.Position, in.Limit)
		if err != nil {
			return nil, err
		}
		return &apigateway.GetResourcesOutput{Items: items, Position: next}, nil
	})
}

func (b *Backend) deleteResource(call *core.Call, in *apigateway.DeleteResourceInput) (*apigateway.DeleteResourceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteResourceOutput, error) {
		a, res, err := r.resource(call, in.RestApiId, in.ResourceId)
		if err != nil {
			return nil, err
		}
		if res.cfg.ParentId == nil {
			return nil, BadRequest("Cannot delete root resource")
		}
		prefix := aws.ToString(res.cfg.Path)
		for id, other := range a.resources {
			if p := aws.ToString(other.cfg.Path); p == prefix || strings.HasPrefix(p, prefix+"/") {
				delete(a.resources, id)
			}
		}
		return &apigateway.DeleteResourceOutput{}, nil
	})
}
