package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// The protocol types of an API.
const (
	// ProtocolREST is a REST API, managed through API Gateway's first API (v1).
	ProtocolREST = "REST"
	// ProtocolHTTP is an HTTP API, managed through API Gateway v2.
	ProtocolHTTP = "HTTP"
	// ProtocolWebSocket is a WebSocket API, managed through API Gateway v2.
	ProtocolWebSocket = "WEBSOCKET"
)

// APIGatewaySpec is the desired state of an Amazon API Gateway API: its protocol, its routes and
// the backend each route sends requests to, the stages it is served at, and an optional custom
// domain name. The three protocols share one kind because they share what a platform team
// declares (routes to Lambda functions or URLs, stages, throttling, access logs, a domain); the
// fields that belong to one protocol only say so and are refused with the others.
// +kubebuilder:validation:XValidation:rule="!has(self.cors) || self.protocolType == 'HTTP'",message="cors applies to HTTP APIs only"
// +kubebuilder:validation:XValidation:rule="!has(self.vpcLink) || self.protocolType == 'HTTP'",message="vpcLink applies to HTTP APIs only: they reach load balancer listeners through it"
// +kubebuilder:validation:XValidation:rule="!has(self.routeSelectionExpression) || self.protocolType == 'WEBSOCKET'",message="routeSelectionExpression applies to WebSocket APIs only"
// +kubebuilder:validation:XValidation:rule="!has(self.endpointType) || self.protocolType == 'REST'",message="endpointType applies to REST APIs only; HTTP and WebSocket APIs are regional"
// +kubebuilder:validation:XValidation:rule="!has(self.routes) || !self.routes.exists(r, has(r.integration.listener)) || has(self.vpcLink)",message="routes whose integration is a load balancer listener need vpcLink (the subnets and security groups API Gateway reaches the listener from)"
// +kubebuilder:validation:XValidation:rule="!has(self.customDomain) || !has(self.customDomain.stage) || (has(self.stages) && self.stages.exists(s, s.name == self.customDomain.stage))",message="customDomain.stage must name one of stages[].name"
type APIGatewaySpec struct {
	shared.ManagedSpec `json:",inline"`

	// Name is the API's name in API Gateway; the object's name when empty. Names need not be
	// unique in API Gateway: the operator finds its API by id and ownership tags.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Name string `json:"name,omitempty"`

	// ProtocolType is the kind of API: REST (API Gateway's REST APIs: resources and methods,
	// request mapping, edge-optimized endpoints), HTTP (HTTP APIs: cheaper and faster, JWT and
	// IAM auth, CORS, private integrations with load balancers) or WEBSOCKET (two-way
	// connections whose messages are routed by a selection expression). It cannot change:
	// create another object to move to another protocol.
	// +kubebuilder:validation:Enum=REST;HTTP;WEBSOCKET
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="protocolType cannot change; create another APIGateway object for another protocol"
	ProtocolType string `json:"protocolType"`

	// Description describes the API.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Description string `json:"description,omitempty"`

	// EndpointType is where a REST API's endpoint is served from: REGIONAL (the default, in the
	// API's region) or EDGE (through CloudFront's edge locations). REST APIs only; it cannot
	// change.
	// +optional
	// +kubebuilder:validation:Enum=REGIONAL;EDGE
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="endpointType cannot change"
	EndpointType string `json:"endpointType,omitempty"`

	// RouteSelectionExpression is how a WebSocket API picks the route of a message, for example
	// $request.body.action (the default): the value found there is matched against the custom
	// route keys. WebSocket APIs only.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	RouteSelectionExpression string `json:"routeSelectionExpression,omitempty"`

	// DisableExecuteAPIEndpoint turns off the default https://<id>.execute-api.<region>.
	// amazonaws.com endpoint, so that clients can only come through the custom domain.
	// +optional
	DisableExecuteAPIEndpoint bool `json:"disableExecuteAPIEndpoint,omitempty"`

	// CORS is the cross-origin resource sharing configuration API Gateway answers browsers'
	// preflight requests with. HTTP APIs only (REST APIs answer preflight requests from their
	// own OPTIONS methods).
	// +optional
	CORS *shared.CORS `json:"cors,omitempty"`

	// VPCLink is the VPC link the API owns, through which routes whose integration is a load
	// balancer listener reach a private ALB or NLB: the subnets and security groups of its
	// network interfaces. It is created with the API and deleted with it. HTTP APIs only.
	// +optional
	VPCLink *VPCLink `json:"vpcLink,omitempty"`

	// Routes are the API's routes, each with the integration requests are sent to. The route
	// key is unique: "METHOD /path" for REST and HTTP APIs (for example "GET /pets/{id}",
	// "ANY /{proxy+}"), "$default" for HTTP APIs' catch-all route, and "$connect",
	// "$disconnect", "$default" or a custom key for WebSocket APIs. Routes are a set: a route
	// made outside this object is deleted, a changed route is put back.
	// +optional
	// +listType=map
	// +listMapKey=routeKey
	// +kubebuilder:validation:MaxItems=300
	Routes []Route `json:"routes,omitempty"`

	// Stages are where the API is served, for example prod at https://<id>.execute-api.
	// <region>.amazonaws.com/prod. HTTP and WebSocket stages deploy every change of the routes
	// at once (autoDeploy); for a REST API the operator creates a deployment when the routes
	// change and points every stage at it. Stages are a set, like routes.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=10
	Stages []Stage `json:"stages,omitempty"`

	// CustomDomain serves one stage of the API at a domain name of your own, with an ACM
	// certificate for it in the API's region. The domain name is created with the API and
	// deleted with it; point its DNS record at status.customDomain.targetDomainName.
	// +optional
	CustomDomain *CustomDomain `json:"customDomain,omitempty"`
}

// VPCLink is the network an HTTP API's VPC link reaches private load balancers from.
// +kubebuilder:validation:XValidation:rule="(has(self.subnetIDs) ? size(self.subnetIDs) : 0) + (has(self.subnetRefs) ? size(self.subnetRefs) : 0) > 0",message="vpcLink needs subnetIDs or subnetRefs"
type VPCLink struct {
	// SubnetIDs are subnets made outside infra-operator, by id.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs are Subnets of the networking family, in this namespace; their ids join
	// subnetIDs.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SecurityGroupIDs are security groups made outside infra-operator, by id, that the VPC
	// link's network interfaces carry; the listener's load balancer must accept their traffic.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// SecurityGroupRefs are SecurityGroups of the networking family, in this namespace; their
	// ids join securityGroupIDs.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	SecurityGroupRefs []shared.Reference `json:"securityGroupRefs,omitempty"`
}

// Route is one route of an API and where its requests go.
type Route struct {
	// RouteKey identifies the route: "METHOD /path" for REST and HTTP APIs, where METHOD is
	// GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or ANY and the path's segments may be
	// parameters ({id}) and the last a greedy one ({proxy+}); "$default" for the catch-all
	// route of an HTTP API; "$connect", "$disconnect", "$default" or a custom key (matched
	// against routeSelectionExpression) for a WebSocket API.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	RouteKey string `json:"routeKey"`

	// AuthorizationType is how callers are authorized: NONE (the default) or AWS_IAM (requests
	// signed with AWS credentials allowed to execute-api:Invoke). On a WebSocket API only the
	// $connect route may require authorization.
	// +optional
	// +kubebuilder:validation:Enum=NONE;AWS_IAM
	AuthorizationType string `json:"authorizationType,omitempty"`

	// Integration is where the route's requests go.
	Integration Integration `json:"integration"`
}

// Integration is the backend of a route: a Lambda function (by reference or ARN), an HTTP URL,
// or, for HTTP APIs, a load balancer listener reached through the API's VPC link. Exactly one
// is set. A Lambda function is granted permission to be invoked by the API (a statement in its
// resource policy, removed when no route names the function any more).
// +kubebuilder:validation:XValidation:rule="[has(self.lambdaFunctionRef), has(self.lambdaFunctionARN), has(self.url), has(self.listener)].filter(x, x).size() == 1",message="set exactly one of lambdaFunctionRef, lambdaFunctionARN, url and listener"
// +kubebuilder:validation:XValidation:rule="!has(self.method) || has(self.url)",message="method applies to url integrations only"
type Integration struct {
	// LambdaFunctionRef is a LambdaFunction of the compute family, in this namespace, that
	// API Gateway invokes with the request (a proxy integration).
	// +optional
	LambdaFunctionRef *shared.Reference `json:"lambdaFunctionRef,omitempty"`

	// LambdaFunctionARN is a Lambda function made outside infra-operator, by ARN (a version or
	// alias ARN invokes that version or alias).
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:lambda:[a-z0-9-]+:[0-9]{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9_$-]{1,128})?$`
	LambdaFunctionARN string `json:"lambdaFunctionARN,omitempty"`

	// URL is an HTTP or HTTPS endpoint the request is passed to (an HTTP proxy integration),
	// for example https://backend.example.com/{proxy}.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^https?://`
	URL string `json:"url,omitempty"`

	// Method is the HTTP method a url integration sends: the route's method when empty, ANY
	// for an HTTP API's $default route and WebSocket routes, which have none.
	// +optional
	// +kubebuilder:validation:Enum=GET;POST;PUT;PATCH;DELETE;HEAD;OPTIONS;ANY
	Method string `json:"method,omitempty"`

	// Listener is a listener of an ALB or NLB of the networking family, reached through the
	// API's vpcLink (a private integration). HTTP APIs only.
	// +optional
	Listener *ListenerTarget `json:"listener,omitempty"`

	// PayloadFormatVersion is the shape of the event a Lambda function receives from an HTTP
	// API: 2.0 (the default) or 1.0 (the REST API's shape). HTTP APIs only; HTTP and listener
	// integrations always use 1.0.
	// +optional
	// +kubebuilder:validation:Enum="1.0";"2.0"
	PayloadFormatVersion string `json:"payloadFormatVersion,omitempty"`

	// TimeoutMilliseconds is how long API Gateway waits for the backend, from 50 to 29000 (the
	// default) milliseconds; HTTP APIs allow up to 30000.
	// +optional
	// +kubebuilder:validation:Minimum=50
	// +kubebuilder:validation:Maximum=30000
	TimeoutMilliseconds int32 `json:"timeoutMilliseconds,omitempty"`

	// ListenerARN is the ARN the listener field resolves to, filled by the operator on every
	// pass; it is not part of the API.
	ListenerARN string `json:"-"`
}

// ListenerTarget names a load balancer listener by its load balancer and port.
// +kubebuilder:validation:XValidation:rule="[has(self.albRef), has(self.nlbRef)].filter(x, x).size() == 1",message="set exactly one of albRef and nlbRef"
type ListenerTarget struct {
	// ALBRef is an ALB of the networking family, in this namespace.
	// +optional
	ALBRef *shared.Reference `json:"albRef,omitempty"`

	// NLBRef is an NLB of the networking family, in this namespace.
	// +optional
	NLBRef *shared.Reference `json:"nlbRef,omitempty"`

	// Port is the port of the load balancer's listener.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`

	// LoadBalancerARN is the ARN the reference resolves to, filled by the operator on every
	// pass; it is not part of the API.
	LoadBalancerARN string `json:"-"`
}

// Stage is one stage an API is served at.
type Stage struct {
	// Name is the stage's name, the first segment of its URLs: letters, digits, hyphens and
	// underscores, or "$default" for an HTTP API stage served at the endpoint's root.
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^(\$default|[A-Za-z0-9_-]+)$`
	Name string `json:"name"`

	// Description describes the stage.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Description string `json:"description,omitempty"`

	// Variables are the stage variables, which integrations and mapping templates read as
	// ${stageVariables.name}.
	// +optional
	// +kubebuilder:validation:MaxProperties=100
	Variables map[string]string `json:"variables,omitempty"`

	// Throttling limits the requests the stage accepts, for every route; without it the
	// account's limits apply.
	// +optional
	Throttling *Throttling `json:"throttling,omitempty"`

	// AccessLog writes one line per request to a CloudWatch Logs log group (or, for REST APIs,
	// a Firehose stream whose name starts with amazon-apigateway-).
	// +optional
	AccessLog *AccessLog `json:"accessLog,omitempty"`
}

// Throttling is a steady rate and a burst of requests.
type Throttling struct {
	// RateLimit is the steady-state number of requests per second allowed.
	// +kubebuilder:validation:Minimum=0
	RateLimit int32 `json:"rateLimit"`

	// BurstLimit is the number of requests allowed at once above the steady rate.
	// +kubebuilder:validation:Minimum=0
	BurstLimit int32 `json:"burstLimit"`
}

// AccessLog is where and how a stage logs its requests.
type AccessLog struct {
	// DestinationARN is the ARN of the CloudWatch Logs log group (or Firehose stream) the lines
	// go to, for example arn:aws:logs:us-east-1:123456789012:log-group:api-access.
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:(logs|firehose):`
	DestinationARN string `json:"destinationARN"`

	// Format is the line written per request, with $context variables, for example
	// {"requestId":"$context.requestId","status":"$context.status"}.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=4096
	Format string `json:"format"`
}

// CustomDomain is a domain name of your own that serves one stage of the API.
// +kubebuilder:validation:XValidation:rule="[has(self.certificateRef), has(self.certificateARN)].filter(x, x).size() == 1",message="set exactly one of certificateRef and certificateARN"
type CustomDomain struct {
	// DomainName is the domain name, for example api.example.com.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainName cannot change; remove customDomain and set it again to move the API to another name"
	DomainName string `json:"domainName"`

	// CertificateRef is an ACMCertificate of the security family, in this namespace, that
	// covers the domain name; it must be in the API's region.
	// +optional
	CertificateRef *shared.Reference `json:"certificateRef,omitempty"`

	// CertificateARN is an ACM certificate made outside infra-operator, by ARN, in the API's
	// region.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:aws[a-zA-Z-]*:acm:[a-z0-9-]+:[0-9]{12}:certificate/.+$`
	CertificateARN string `json:"certificateARN,omitempty"`

	// Stage is the stage the domain serves; the first of stages when empty.
	// +optional
	Stage string `json:"stage,omitempty"`

	// BasePath is the path under the domain the stage is served at, for example v1 for
	// https://api.example.com/v1; the domain's root when empty.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`
	BasePath string `json:"basePath,omitempty"`
}

// APIGatewayStatus is the observed state of an API.
type APIGatewayStatus struct {
	shared.ManagedStatus `json:",inline"`

	// APIID is the API's id, for example a1b2c3d4e5.
	// +optional
	APIID string `json:"apiID,omitempty" output:""`

	// ARN is the API's ARN, for example arn:aws:apigateway:us-east-1::/apis/a1b2c3d4e5.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// ExecutionARN is the ARN IAM policies and Lambda permissions name the API's routes by,
	// arn:aws:execute-api:<region>:<account>:<id>.
	// +optional
	ExecutionARN string `json:"executionARN,omitempty" output:""`

	// APIEndpoint is the API's default endpoint, for example https://a1b2c3d4e5.execute-api.
	// us-east-1.amazonaws.com (wss:// for WebSocket APIs).
	// +optional
	APIEndpoint string `json:"apiEndpoint,omitempty" output:""`

	// Stages are the API's stages with the URL each is served at.
	// +optional
	Stages []StageStatus `json:"stages,omitempty"`

	// DeploymentID is the deployment a REST API's stages serve, the one made for the current
	// routes.
	// +optional
	DeploymentID string `json:"deploymentID,omitempty"`

	// VPCLinkID is the id of the VPC link the API owns.
	// +optional
	VPCLinkID string `json:"vpcLinkID,omitempty"`

	// VPCLinkStatus is the VPC link's status: PENDING while API Gateway sets up its network
	// interfaces, then AVAILABLE.
	// +optional
	VPCLinkStatus string `json:"vpcLinkStatus,omitempty"`

	// CustomDomain is the custom domain name, once created.
	// +optional
	CustomDomain *CustomDomainStatus `json:"customDomain,omitempty"`

	// InvokeGrants are the ARNs of the Lambda functions that allow the API to invoke them,
	// through a statement the operator added to their resource policy; it removes the
	// statement when no route names the function any more, and when the API is deleted.
	// +optional
	InvokeGrants []string `json:"invokeGrants,omitempty"`
}

// StageStatus is one stage of an API.
type StageStatus struct {
	// Name is the stage's name.
	Name string `json:"name"`
	// URL is where the stage is served, for example https://a1b2c3d4e5.execute-api.us-east-1.
	// amazonaws.com/prod.
	URL string `json:"url"`
	// DeploymentID is the deployment the stage serves.
	// +optional
	DeploymentID string `json:"deploymentID,omitempty"`
}

// CustomDomainStatus is what API Gateway made for a custom domain name.
type CustomDomainStatus struct {
	// DomainName is the custom domain name.
	DomainName string `json:"domainName"`
	// URL is where the mapped stage is served under the domain.
	// +optional
	URL string `json:"url,omitempty"`
	// TargetDomainName is the name the domain's DNS record (a CNAME, or an alias record) must
	// point to.
	// +optional
	TargetDomainName string `json:"targetDomainName,omitempty"`
	// HostedZoneID is the Route 53 hosted zone of targetDomainName, for alias records.
	// +optional
	HostedZoneID string `json:"hostedZoneID,omitempty"`
}

// APIGateway is an Amazon API Gateway API: a REST, HTTP or WebSocket API with its routes,
// stages and custom domain.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=apigw,categories={aws,aws-edge}
// +kubebuilder:printcolumn:name="READY",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="SYNCED",type=string,JSONPath=`.status.conditions[?(@.type=="Synced")].status`
// +kubebuilder:printcolumn:name="PROTOCOL",type=string,JSONPath=`.spec.protocolType`
// +kubebuilder:printcolumn:name="ENDPOINT",type=string,JSONPath=`.status.apiEndpoint`
// +kubebuilder:printcolumn:name="ID",type=string,JSONPath=`.status.apiID`,priority=1
// +kubebuilder:printcolumn:name="AGE",type=date,JSONPath=`.metadata.creationTimestamp`
type APIGateway struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   APIGatewaySpec   `json:"spec"`
	Status APIGatewayStatus `json:"status,omitempty"`
}

// APIGatewayList is a list of APIGateways.
// +kubebuilder:object:root=true
type APIGatewayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []APIGateway `json:"items"`
}

// GetManagedSpec returns the spec fields every managed kind shares.
func (a *APIGateway) GetManagedSpec() *shared.ManagedSpec { return &a.Spec.ManagedSpec }

// GetManagedStatus returns the status fields every managed kind shares.
func (a *APIGateway) GetManagedStatus() *shared.ManagedStatus { return &a.Status.ManagedStatus }
