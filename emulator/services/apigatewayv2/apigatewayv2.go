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

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// Backend holds the HTTP and WebSocket APIs, VPC links and domain names of every account and
// region.
type Backend struct {
	network core.Subnets
	certs   apigateway.Certificates
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
func New(network core.Subnets, certs apigateway.Certificates) *Backend {
	return &Backend{network: network, certs: certs, state: core.NewBackend(func(scope core.Scope) *region {
		return &region{scope: scope, apis: map[string]*api{}, vpcLinks: map[string]*vpcLink{}, domains: map[string]*domain{},
			tags: core.NewTags(tagRules)}
	})}
}

// Service describes API Gateway v2 to the router: signed "apigateway" like v1, and told apart
// from it by its /v2/ paths.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("apigateway", "APIGatewayV2", core.ProtocolRESTJSON, models.MustLoad("apigatewayv2"), apigateway.Throttle)
	s.PathPrefix = "/v2/"
	return s.Declare(apigateway.TransitionTime, b.dump, b.operations(), b.tagOperations())
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
