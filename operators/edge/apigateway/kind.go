// Package apigateway manages Amazon API Gateway APIs for the APIGateway kind: REST APIs through
// API Gateway's first API (v1: resources, methods and their integrations, deployments, stages,
// base path mappings) and HTTP and WebSocket APIs through API Gateway v2 (routes, integrations,
// auto-deployed stages, VPC links, API mappings). One kind covers the three protocols because
// what a platform team declares is the same: routes to Lambda functions, URLs or load balancer
// listeners, stages with throttling and access logs, and a custom domain name. Connect picks the
// driver by the spec's protocolType, which cannot change: restDriver (rest_*.go) or httpDriver
// (http_*.go, listener.go), both built on base (base.go, invoke.go), which holds what the
// protocols share.
//
// Routes and stages are sets: what the spec does not name is deleted, what differs is put
// back. Lambda functions the routes name are granted permission to be invoked by the API
// (invoke.go), and the grants are withdrawn when no route names them any more.
//
// The HTTP and WebSocket driver reads an API in four v2 calls per sync (GetApi, GetRoutes,
// GetIntegrations, GetStages) plus GetPolicy per invoked function. An HTTP API's VPC link
// cannot change its subnets or security groups: new ones replace it (the routes move to the new
// link once it is AVAILABLE, then the old one is deleted). A custom domain name that exists
// without the object's ownership tags is never taken over (DomainNameTaken).
//
// The REST driver reads an API in four v1 calls per sync (GetRestApi, GetResources with the
// methods and integrations embedded, GetStages, GetDeployments) plus GetPolicy per invoked
// function, and GetDomainName and GetBasePathMappings with a custom domain. Its resources are
// the paths of its routes and their prefixes, each route a method of its resource. A deployment
// is a snapshot of the methods: one is made when the routes change, its description carrying a
// fingerprint of the routes ("infra-operator routes <hash>") so that the deployment of the
// current routes is found again without the status; every stage is pointed at it, and the
// deployments no stage serves are deleted.
package apigateway

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// State is what API Gateway said about an API: the field of the API's protocol is set.
type State struct {
	// HTTP is what API Gateway v2 said about an HTTP or WebSocket API.
	HTTP *HTTPState
	// REST is what API Gateway v1 said about a REST API.
	REST *RESTState
}

// Kind declares the APIGateway kind to the engine.
func Kind() managed.Kind[*v1alpha1.APIGateway, State] {
	return managed.Kind[*v1alpha1.APIGateway, State]{
		Connect: func(s *provider.Session, _ client.Reader, o *v1alpha1.APIGateway) managed.Driver[*v1alpha1.APIGateway, State] {
			b := base{
				lambda:  provider.Client(s, "lambda", func(c aws.Config) *lambda.Client { return lambda.NewFromConfig(c) }),
				region:  s.Config.Region,
				account: s.AccountID,
			}
			if o.Spec.ProtocolType == v1alpha1.ProtocolREST {
				return &restDriver{base: b,
					rest: provider.Client(s, "apigateway", func(c aws.Config) *apigateway.Client { return apigateway.NewFromConfig(c) })}
			}
			return &httpDriver{base: b,
				http: provider.Client(s, "apigatewayv2", func(c aws.Config) *apigatewayv2.Client { return apigatewayv2.NewFromConfig(c) }),
				elb:  provider.Client(s, "elasticloadbalancingv2", func(c aws.Config) *elasticloadbalancingv2.Client { return elasticloadbalancingv2.NewFromConfig(c) })}
		},
		Validate:   validate,
		References: references(),
	}
}

// references declares the spec's references: the Lambda functions and load balancers of the
// routes' integrations, the VPC link's subnets and security groups, and the custom domain's
// certificate.
func references() []managed.Ref[*v1alpha1.APIGateway] {
	integrations := func(a *v1alpha1.APIGateway, at func(in *v1alpha1.Integration) managed.Slot) []managed.Slot {
		slots := make([]managed.Slot, len(a.Spec.Routes))
		for i := range a.Spec.Routes {
			slots[i] = at(&a.Spec.Routes[i].Integration)
		}
		return slots
	}
	listener := func(pick func(l *v1alpha1.ListenerTarget) *shared.Reference) func(*v1alpha1.Integration) managed.Slot {
		return func(in *v1alpha1.Integration) managed.Slot {
			if in.Listener == nil {
				return managed.Slot{}
			}
			return managed.Slot{Ref: pick(in.Listener), ID: &in.Listener.LoadBalancerARN}
		}
	}
	vpcLink := func(a *v1alpha1.APIGateway, pick func(l *v1alpha1.VPCLink) ([]shared.Reference, *[]string)) ([]shared.Reference, *shared.Selector, *[]string) {
		if a.Spec.VPCLink == nil {
			return nil, nil, nil
		}
		refs, ids := pick(a.Spec.VPCLink)
		return refs, nil, ids
	}
	return []managed.Ref[*v1alpha1.APIGateway]{
		// The API adds a statement to each function's resource policy.
		managed.Each(targets.LambdaFunction, "spec.routes[%d].integration.lambdaFunctionRef", func(a *v1alpha1.APIGateway) []managed.Slot {
			return integrations(a, func(in *v1alpha1.Integration) managed.Slot {
				return managed.Slot{Ref: in.LambdaFunctionRef, ID: &in.LambdaFunctionARN}
			})
		}).Writing(),
		managed.Each(targets.ALBByARN, "spec.routes[%d].integration.listener.albRef", func(a *v1alpha1.APIGateway) []managed.Slot {
			return integrations(a, listener(func(l *v1alpha1.ListenerTarget) *shared.Reference { return l.ALBRef }))
		}),
		managed.Each(targets.NLBByARN, "spec.routes[%d].integration.listener.nlbRef", func(a *v1alpha1.APIGateway) []managed.Slot {
			return integrations(a, listener(func(l *v1alpha1.ListenerTarget) *shared.Reference { return l.NLBRef }))
		}),
		managed.List(targets.Subnet, "spec.vpcLink.subnetRefs", "", func(a *v1alpha1.APIGateway) ([]shared.Reference, *shared.Selector, *[]string) {
			return vpcLink(a, func(l *v1alpha1.VPCLink) ([]shared.Reference, *[]string) { return l.SubnetRefs, &l.SubnetIDs })
		}),
		managed.List(targets.SecurityGroup, "spec.vpcLink.securityGroupRefs", "", func(a *v1alpha1.APIGateway) ([]shared.Reference, *shared.Selector, *[]string) {
			return vpcLink(a, func(l *v1alpha1.VPCLink) ([]shared.Reference, *[]string) {
				return l.SecurityGroupRefs, &l.SecurityGroupIDs
			})
		}),
		managed.One(targets.ACMCertificate, "spec.customDomain.certificateRef", func(a *v1alpha1.APIGateway) (*shared.Reference, *string) {
			if a.Spec.CustomDomain == nil {
				return nil, nil
			}
			return a.Spec.CustomDomain.CertificateRef, &a.Spec.CustomDomain.CertificateARN
		}),
	}
}
