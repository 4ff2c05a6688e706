// Package apigatewayv2 emulates Amazon API Gateway v2, the API of HTTP and WebSocket APIs, over
// its restJson1 protocol (API version 2018-11-29, paths under /v2/): APIs, routes,
// integrations, stages, deployments, VPC links, custom domain names with their API mappings,
// and tags.
//
// It keeps what an operator that manages APIs reads back: route keys are checked as AWS checks
// them ("$default" or "METHOD /path" for HTTP APIs; "$connect", "$disconnect", "$default" or a
// custom key for WebSocket APIs, which require a RouteSelectionExpression); a route's target
// must name an integration of its API; integrations are AWS_PROXY to a Lambda function (HTTP
// APIs need PayloadFormatVersion 1.0 or 2.0) or HTTP_PROXY to a URL, or, with ConnectionType
// VPC_LINK, to a load balancer listener ARN through a VPC link of the account; CORS belongs to
// HTTP APIs only. A stage with AutoDeploy gets a new deployment whenever a route or an
// integration of its API changes. VPC links check their subnets and security groups against the
// emulated EC2 and are PENDING, then AVAILABLE, a transition later on the simulation clock (1s
// unless the server's options say otherwise for "APIGatewayV2"). Domain names check their
// certificate against the emulated ACM. ApiEndpoint is https://<id>.execute-api.<region>.
// amazonaws.com (wss:// for WebSocket APIs).
//
// Not emulated: invocation (no request reaches a Lambda function or a URL), authorizers (routes
// take NONE or AWS_IAM, which a WebSocket API allows on $connect only),
// models, route and integration responses, OpenAPI import and export, mutual TLS, and the
// certificate's use being reported by ACM.
package apigatewayv2

import (
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// TransitionTime is how long a VPC link stays PENDING on the simulation clock by default.
const TransitionTime = time.Second

// Network is what API Gateway needs of EC2: the subnets and security groups VPC links name.
type Network interface {
	// Subnet returns the VPC and the availability zone of a subnet.
	Subnet(scope core.Scope, id string) (vpc, zone string, ok bool)
	// SecurityGroup returns the VPC of a security group.
	SecurityGroup(scope core.Scope, id string) (vpc string, ok bool)
}

// Certificates is what API Gateway needs of ACM: whether a certificate exists.
type Certificates interface {
	// Has reports whether ACM has the certificate arn in scope.
	Has(scope core.Scope, arn string) bool
}

// Backend holds the HTTP and WebSocket APIs, VPC links and domain names of every account and
// region.
type Backend struct {
	network Network
	certs   Certificates
	state   *core.Backend[*region]
}

// region is what one account has in one region.
type region struct {
	scope    core.Scope
	apis     map[string]*api     // by id
	vpcLinks map[string]*vpcLink // by id
	domains  map[string]*domain  // by domain name
	tags     *core.Tags          // of APIs, stages, VPC links and domain names, by ARN
}

// New returns an empty API Gateway v2 backend that checks VPC links against network and domain
// names' certificates against certs.
func New(network Network, certs Certificates) *Backend {
	return &Backend{network: network, certs: certs, state: core.NewBackend(func(scope core.Scope) *region {
		return &region{scope: scope, apis: map[string]*api{}, vpcLinks: map[string]*vpcLink{}, domains: map[string]*domain{},
			tags: core.NewTags(tagRules)}
	})}
}

// Service describes API Gateway v2 to the router: signed "apigateway" like v1, and told apart
// from it by its /v2/ paths.
func (b *Backend) Service() *core.Service {
	tagging := b.tagging()
	s := core.RESTService("apigateway", "APIGatewayV2", core.ProtocolRESTJSON, models.MustLoad("apigatewayv2"), apigateway.Throttle)
	s.PathPrefix, s.Transition, s.Dump = "/v2/", TransitionTime, b.dump
	s.Operations = map[string]core.Operation{
		"CreateApi":               core.Op(b.createAPI),
		"GetApi":                  core.Op(b.getAPI),
		"GetApis":                 core.Op(b.getAPIs),
		"UpdateApi":               core.Op(b.updateAPI),
		"DeleteApi":               core.Op(b.deleteAPI),
		"DeleteCorsConfiguration": core.Op(b.deleteCORS),
		"CreateRoute":             core.Op(b.createRoute),
		"GetRoute":                core.Op(b.getRoute),
		"GetRoutes":               core.Op(b.getRoutes),
		"UpdateRoute":             core.Op(b.updateRoute),
		"DeleteRoute":             core.Op(b.deleteRoute),
		"CreateIntegration":       core.Op(b.createIntegration),
		"GetIntegration":          core.Op(b.getIntegration),
		"GetIntegrations":         core.Op(b.getIntegrations),
		"UpdateIntegration":       core.Op(b.updateIntegration),
		"DeleteIntegration":       core.Op(b.deleteIntegration),
		"CreateStage":             core.Op(b.createStage),
		"GetStage":                core.Op(b.getStage),
		"GetStages":               core.Op(b.getStages),
		"UpdateStage":             core.Op(b.updateStage),
		"DeleteStage":             core.Op(b.deleteStage),
		"DeleteAccessLogSettings": core.Op(b.deleteAccessLogSettings),
		"CreateDeployment":        core.Op(b.createDeployment),
		"GetDeployment":           core.Op(b.getDeployment),
		"GetDeployments":          core.Op(b.getDeployments),
		"DeleteDeployment":        core.Op(b.deleteDeployment),
		"CreateVpcLink":           core.Op(b.createVpcLink),
		"GetVpcLink":              core.Op(b.getVpcLink),
		"GetVpcLinks":             core.Op(b.getVpcLinks),
		"DeleteVpcLink":           core.Op(b.deleteVpcLink),
		"CreateDomainName":        core.Op(b.createDomainName),
		"GetDomainName":           core.Op(b.getDomainName),
		"GetDomainNames":          core.Op(b.getDomainNames),
		"UpdateDomainName":        core.Op(b.updateDomainName),
		"DeleteDomainName":        core.Op(b.deleteDomainName),
		"CreateApiMapping":        core.Op(b.createAPIMapping),
		"GetApiMapping":           core.Op(b.getAPIMapping),
		"GetApiMappings":          core.Op(b.getAPIMappings),
		"UpdateApiMapping":        core.Op(b.updateAPIMapping),
		"DeleteApiMapping":        core.Op(b.deleteAPIMapping),
		"TagResource":             core.AddOp[apigatewayv2.TagResourceOutput](tagging, func(in *apigatewayv2.TagResourceInput) (*string, map[string]string) { return in.ResourceArn, in.Tags }),
		"UntagResource":           core.RemoveOp[apigatewayv2.UntagResourceOutput](tagging, func(in *apigatewayv2.UntagResourceInput) (*string, []string) { return in.ResourceArn, in.TagKeys }),
		"GetTags": core.MapOp(tagging, func(in *apigatewayv2.GetTagsInput) *string { return in.ResourceArn }, func(tags map[string]string) *apigatewayv2.GetTagsOutput {
			return &apigatewayv2.GetTagsOutput{Tags: tags}
		}),
	}
	return s
}

// The errors API Gateway v2 answers, as v1's.
var (
	badRequest = apigateway.BadRequest
	conflict   = apigateway.Conflict
	notFound   = apigateway.NotFound
)

// page returns the page of items that NextToken and MaxResults (a number in a string, as the
// v2 API takes it) select, and the next token.
func page[T any](items []T, token, maxResults *string) ([]T, *string, error) {
	size := 0
	if m := aws.ToString(maxResults); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return nil, nil, badRequest("Invalid MaxResults: %s", m)
		}
		size = n
	}
	return apigateway.Page(items, aws.ToString(token), size)
}

// dump returns the APIs, VPC links and domain names of every account and region.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, r := range b.state.All() {
		apis := map[string]any{}
		for id, a := range r.apis {
			apis[id] = map[string]any{"name": aws.ToString(a.cfg.Name), "protocol": a.cfg.ProtocolType,
				"routes": len(a.routes), "integrations": len(a.integrations), "stages": core.SortedKeys(a.stages)}
		}
		out[scope.Account+"/"+scope.Region] = map[string]any{"apis": apis, "vpcLinks": core.SortedKeys(r.vpcLinks),
			"domainNames": core.SortedKeys(r.domains)}
	}
	return out
}
