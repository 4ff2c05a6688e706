// Package apigateway emulates Amazon API Gateway v1, the API of REST APIs, over its restJson1
// protocol (API version 2015-07-09, paths such as /restapis/...): REST APIs with their root
// resource "/", resources, methods and their integrations, deployments, stages, custom domain
// names (UpdateDomainName patches their certificate and security policy) with their base path
// mappings, VPC links, and tags. Updates take JSON Patch operations
// as AWS's do.
//
// It keeps what an operator that manages REST APIs reads back: resource paths are built from
// their parents' and siblings cannot share a path part; a method exists once per HTTP verb of
// a resource; integrations are AWS_PROXY or AWS to a Lambda function ARN (or the invocation URI
// that wraps one, with integrationHttpMethod POST), HTTP or HTTP_PROXY to a URL (or, with
// connectionType VPC_LINK, through a VPC link), or MOCK; a deployment needs at least one method,
// each with an integration; a stage names a deployment, and UpdateStage patches its variables,
// tracing, access log settings and method settings (throttling, logging, metrics, caching: for
// "/*/*" or one method, as "/~1pets/GET/throttling/rateLimit"). Domain names check their
// certificate (regionalCertificateArn, or certificateArn in us-east-1 for edge-optimized names)
// against the emulated ACM. VPC links target Network Load Balancer ARNs and are PENDING, then
// AVAILABLE, a transition later on the simulation clock (1s unless the server's options say
// otherwise for "APIGateway").
//
// Not emulated: invocation (no request reaches a Lambda function or a URL), authorizers,
// models, request validators, method and integration responses, API keys and usage plans,
// OpenAPI import and export, canaries, stage caches, and the certificate's use being reported
// by ACM. Package apigatewayv2 shares this package's errors, tag rules and ARNs.
package apigateway

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a VPC link stays PENDING on the simulation clock by default.
const TransitionTime = time.Second

// Certificates is what API Gateway needs of ACM: whether a certificate exists.
type Certificates interface {
	// Has reports whether ACM has the certificate arn in scope.
	Has(scope core.Scope, arn string) bool
}

// Backend holds the REST APIs, domain names and VPC links of every account and region.
type Backend struct {
	certs Certificates
	state *core.Backend[*region]
}

// region is what one account has in one region.
type region struct {
	scope    core.Scope
	apis     map[string]*restAPI // by id
	domains  map[string]*domain  // by domain name
	vpcLinks map[string]*vpcLink // by id
	tags     *core.Tags          // of REST APIs, stages, domain names and VPC links, by ARN
}

// New returns an empty API Gateway v1 backend that checks domain names' certificates against
// certs.
func New(certs Certificates) *Backend {
	return &Backend{certs: certs, state: core.NewBackend(func(scope core.Scope) *region {
		return &region{scope: scope, apis: map[string]*restAPI{}, domains: map[string]*domain{}, vpcLinks: map[string]*vpcLink{},
			tags: core.NewTags(TagRules)}
	})}
}

// Service describes API Gateway v1 to the router.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("apigateway", "APIGateway", core.ProtocolRESTJSON, models.MustLoad("apigateway"), Throttle)
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// page returns the page of items that a v1 request's position and limit (1 to 500, default 25)
// select, and the next position.
func page[T any](items []T, position *string, limit *int32) ([]T, *string, error) {
	size := int32(25)
	if limit != nil {
		if *limit < 1 || *limit > 500 {
			return nil, nil, BadRequest("Invalid limit: %d. It must be between 1 and 500", *limit)
		}
		size = *limit
	}
	return Page(items, aws.ToString(position), int(size))
}

// dump returns the REST APIs, domain names and VPC links of every account and region.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, r := range b.state.All() {
		apis := map[string]any{}
		for id, a := range r.apis {
			paths := []string{}
			for _, res := range a.resources {
				paths = append(paths, aws.ToString(res.cfg.Path))
			}
			apis[id] = map[string]any{"name": aws.ToString(a.cfg.Name), "resources": paths, "stages": core.SortedKeys(a.stages),
				"deployments": len(a.deployments)}
		}
		out[scope.Account+"/"+scope.Region] = map[string]any{"restApis": apis, "domainNames": core.SortedKeys(r.domains),
			"vpcLinks": core.SortedKeys(r.vpcLinks)}
	}
	return out
}
