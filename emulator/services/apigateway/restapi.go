package apigateway

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// restAPI is one REST API with what belongs to it.
type restAPI struct {
	cfg         types.RestApi // as GetRestApi shows it, but for tags
	arn         string
	resources   map[string]*resource         // by id
	stages      map[string]*types.Stage      // by name, without tags
	deployments map[string]*types.Deployment // by id
}

// lookup returns the REST API id names, or NotFoundException. The caller holds the backend's mutex.
func (r *region) lookup(call *core.Call, id *string) (*restAPI, error) {
	a, ok := r.apis[aws.ToString(id)]
	if !ok {
		return nil, NotFound(call, "API", aws.ToString(id))
	}
	return a, nil
}

// view returns the REST API with its tags.
func (r *region) view(a *restAPI) *types.RestApi {
	out := a.cfg
	out.Tags = r.tags.Map(a.arn)
	return &out
}

// endpointConfiguration checks an API's endpoint configuration and fills in AWS's default,
// an edge-optimized endpoint.
func endpointConfiguration(in *types.EndpointConfiguration) (*types.EndpointConfiguration, error) {
	if in == nil || len(in.Types) == 0 {
		return &types.EndpointConfiguration{Types: []types.EndpointType{types.EndpointTypeEdge}, IpAddressType: types.IpAddressTypeIpv4}, nil
	}
	if len(in.Types) != 1 {
		return nil, BadRequest("Endpoint configuration must have exactly one type")
	}
	switch in.Types[0] {
	case types.EndpointTypeEdge, types.EndpointTypeRegional, types.EndpointTypePrivate:
	default:
		return nil, BadRequest("Invalid endpoint type: %s", in.Types[0])
	}
	out := *in
	if out.IpAddressType == "" {
		out.IpAddressType = types.IpAddressTypeIpv4
	}
	return &out, nil
}

func (b *Backend) createRestAPI(call *core.Call, in *apigateway.CreateRestApiInput) (*apigateway.CreateRestApiOutput, error) {
	if aws.ToString(in.Name) == "" {
		return nil, BadRequest("Invalid REST API name specified")
	}
	if in.CloneFrom != nil {
		return nil, BadRequest("The emulator does not implement cloneFrom")
	}
	endpoints, err := endpointConfiguration(in.EndpointConfiguration)
	if err != nil {
		return nil, err
	}
	source := in.ApiKeySource
	if source == "" {
		source = types.ApiKeySourceTypeHeader
	}
	return core.Locked(b.state, call, func(r *region) (*apigateway.CreateRestApiOutput, error) {
		id := core.LowerAlnumID(10)
		root := newResource(nil, "")
		a := &restAPI{arn: ARN(r.scope, "/restapis/"+id), resources: map[string]*resource{root.id(): root},
			stages: map[string]*types.Stage{}, deployments: map[string]*types.Deployment{}}
		a.cfg = types.RestApi{
			Id: aws.String(id), Name: in.Name, Description: in.Description, Version: in.Version, CreatedDate: aws.Time(call.Now),
			ApiKeySource: source, EndpointConfiguration: endpoints, BinaryMediaTypes: slices.Clone(in.BinaryMediaTypes),
			MinimumCompressionSize: in.MinimumCompressionSize, Policy: in.Policy, RootResourceId: aws.String(root.id()),
			DisableExecuteApiEndpoint: in.DisableExecuteApiEndpoint, ApiStatus: types.ApiStatusAvailable,
			SecurityPolicy: in.SecurityPolicy, EndpointAccessMode: in.EndpointAccessMode,
		}
		return Created[apigateway.CreateRestApiOutput](r.tags, in.Tags, a.arn, r.apis, id, a, r.view)
	})
}

// getRestAPI answers GetRestApi with the REST API a request names.
func (b *Backend) getRestAPI(call *core.Call, in *apigateway.GetRestApiInput) (*apigateway.GetRestApiOutput, error) {
	return Read[apigateway.GetRestApiOutput](b.state, call, func(r *region) (*types.RestApi, error) {
		a, err := r.lookup(call, in.RestApiId)
		return View(a, err, r.view)
	})
}

// getRestAPIs answers GetRestApis with a page of the region's REST APIs, by id.
func (b *Backend) getRestAPIs(call *core.Call, in *apigateway.GetRestApisInput) (*apigateway.GetRestApisOutput, error) {
	return List[apigateway.GetRestApisOutput](b.state, call, func(r *region) ([]types.RestApi, error) { return Views(r.apis, r.view), nil },
		page, in.Position, in.Limit)
}

func (b *Backend) updateRestAPI(call *core.Call, in *apigateway.UpdateRestApiInput) (*apigateway.UpdateRestApiOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.UpdateRestApiOutput, error) {
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		cfg := a.cfg
		err = patch(in.PatchOperations, func(p patchOp) error { return patchRestAPI(&cfg, p) })
		if err != nil {
			return nil, err
		}
		a.cfg = cfg
		out := &apigateway.UpdateRestApiOutput{}
		core.Fill(out, r.view(a))
		return out, nil
	})
}

// patchRestAPI applies one patch operation to a REST API's settings.
func patchRestAPI(cfg *types.RestApi, p patchOp) error {
	switch p.parts[0] {
	case "name":
		if aws.ToString(p.str()) == "" {
			return BadRequest("Invalid REST API name specified")
		}
		cfg.Name = p.value
	case "description":
		cfg.Description = p.str()
	case "version":
		cfg.Version = p.str()
	case "policy":
		cfg.Policy = p.str()
	case "apiKeySource":
		cfg.ApiKeySource = types.ApiKeySourceType(aws.ToString(p.value))
	case "disableExecuteApiEndpoint":
		return set(&cfg.DisableExecuteApiEndpoint, p.boolean)
	case "minimumCompressionSize":
		if p.str() == nil || *p.value == "" {
			cfg.MinimumCompressionSize = nil
			return nil
		}
		v, err := p.integer()
		if err != nil {
			return err
		}
		cfg.MinimumCompressionSize = aws.Int32(v)
	case "binaryMediaTypes":
		if len(p.parts) != 2 {
			return p.invalidPath()
		}
		cfg.BinaryMediaTypes = slices.DeleteFunc(slices.Clone(cfg.BinaryMediaTypes), func(t string) bool { return t == p.parts[1] })
		if p.op != types.OpRemove {
			cfg.BinaryMediaTypes = append(cfg.BinaryMediaTypes, p.parts[1])
		}
	default:
		return p.invalidPath()
	}
	return nil
}

func (b *Backend) deleteRestAPI(call *core.Call, in *apigateway.DeleteRestApiInput) (*apigateway.DeleteRestApiOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*apigateway.DeleteRestApiOutput, error) {
		a, err := r.lookup(call, in.RestApiId)
		if err != nil {
			return nil, err
		}
		id := aws.ToString(a.cfg.Id)
		for _, d := range r.domains {
			for path, m := range d.mappings {
				if aws.ToString(m.RestApiId) == id {
					delete(d.mappings, path)
				}
			}
		}
		for name := range a.stages {
			r.tags.Delete(stageARN(r.scope, id, name))
		}
		r.tags.Delete(a.arn)
		delete(r.apis, id)
		return &apigateway.DeleteRestApiOutput{}, nil
	})
}
