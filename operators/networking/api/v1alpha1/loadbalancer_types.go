package v1alpha1

import (
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// LoadBalancerSpec holds what Application and Network Load Balancers share: the load balancer
// itself, its listeners and the target groups they forward to. Listeners and target groups
// are reconciled as sets: what the spec has and AWS does not is created, what differs is
// modified, and listeners or target groups of the load balancer that the spec no longer names
// are deleted.
// +kubebuilder:validation:XValidation:rule="[has(self.subnetIDs), has(self.subnetRefs), has(self.subnetSelector)].filter(x, x).size() == 1",message="set exactly one of subnetIDs, subnetRefs and subnetSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, !has(l.defaultAction.forward) || !has(l.defaultAction.forward.targetGroup) || (has(self.targetGroups) && self.targetGroups.exists(g, g.name == l.defaultAction.forward.targetGroup)))",message="a listener forwards to a target group named in spec.targetGroups"
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, !has(l.rules) || l.rules.all(r, !has(r.action.forward) || !has(r.action.forward.targetGroup) || (has(self.targetGroups) && self.targetGroups.exists(g, g.name == r.action.forward.targetGroup))))",message="a listener rule forwards to a target group named in spec.targetGroups"
// +kubebuilder:validation:XValidation:rule="!has(self.listeners) || self.listeners.all(l, (!has(l.defaultAction.forward) || !has(l.defaultAction.forward.targetGroups) || l.defaultAction.forward.targetGroups.all(w, !has(w.name) || (has(self.targetGroups) && self.targetGroups.exists(g, g.name == w.name)))) && (!has(l.rules) || l.rules.all(r, !has(r.action.forward) || !has(r.action.forward.targetGroups) || r.action.forward.targetGroups.all(w, !has(w.name) || (has(self.targetGroups) && self.targetGroups.exists(g, g.name == w.name))))))",message="a weighted forward names target groups of spec.targetGroups"
type LoadBalancerSpec struct {
	shared.ManagedSpec `json:",inline"`

	// Name is the load balancer's name in AWS, unique in the account and region: 1 to 32
	// letters, digits and hyphens, not starting or ending with a hyphen nor starting with
	// internal-. When absent the object's name is used. It cannot change once the load
	// balancer exists.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$`
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('internal-')",message="a load balancer's name cannot start with internal-"
	Name string `json:"name,omitempty"`

	// Scheme is internet-facing (reachable from the internet, in public subnets) or internal.
	// It cannot change.
	// +optional
	// +kubebuilder:default=internet-facing
	// +kubebuilder:validation:Enum=internet-facing;internal
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="scheme cannot change; create a new load balancer"
	Scheme string `json:"scheme,omitempty"`

	// IPAddressType is ipv4 or dualstack (IPv4 and IPv6; the subnets need IPv6 ranges).
	// +optional
	// +kubebuilder:default=ipv4
	// +kubebuilder:validation:Enum=ipv4;dualstack
	IPAddressType string `json:"ipAddressType,omitempty"`

	// SubnetIDs are the load balancer's subnets, one per availability zone, for subnets made
	// outside this cluster.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:Pattern=`^subnet-[0-9a-z]+$`
	// +kubebuilder:validation:items:MaxLength=32
	SubnetIDs []string `json:"subnetIDs,omitempty"`

	// SubnetRefs name the Subnet objects in this namespace; the load balancer waits until
	// they are Ready.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	SubnetRefs []shared.Reference `json:"subnetRefs,omitempty"`

	// SubnetSelector uses every Subnet in this namespace that carries the labels; subnets
	// that gain or lose the labels are added or removed.
	// +optional
	SubnetSelector *shared.Selector `json:"subnetSelector,omitempty"`

	// Attributes are load balancer attributes by key, for example
	// deletion_protection.enabled: "true" or idle_timeout.timeout_seconds: "120". Only the
	// keys named here are managed; the others keep AWS's values.
	// +optional
	// +kubebuilder:validation:MaxProperties=40
	Attributes map[string]string `json:"attributes,omitempty"`

	// TargetGroups are the target groups the listeners forward to, created in the load
	// balancer's VPC.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=20
	TargetGroups []TargetGroup `json:"targetGroups,omitempty"`

	// Listeners accept connections on a port and apply their default action; each port
	// appears once.
	// +optional
	// +listType=map
	// +listMapKey=port
	// +kubebuilder:validation:MaxItems=20
	Listeners []Listener `json:"listeners,omitempty"`
}

// TargetGroup routes requests to registered targets (instances, IP addresses, Lambda
// functions or an Application Load Balancer) and checks their health. Its name, protocol, port
// and target type cannot change: give the group a new name to replace it, and the listeners
// move to the new group before the old one is deleted.
// +kubebuilder:validation:XValidation:rule="self.targetType == 'lambda' ? (!has(self.protocol) && !has(self.port)) : (has(self.protocol) && has(self.port))",message="a target group needs protocol and port, except for targetType lambda, which takes neither"
// +kubebuilder:validation:XValidation:rule="self.targetType != 'alb' || self.protocol == 'TCP'",message="a target group of targetType alb uses the TCP protocol"
// +kubebuilder:validation:XValidation:rule="!has(self.targets) || self.targets.all(t, self.targetType == 'instance' ? (has(t.instanceRef) || has(t.instanceID)) : self.targetType == 'ip' ? has(t.ip) : self.targetType == 'lambda' ? (has(t.lambdaRef) || has(t.lambdaFunctionARN)) : false)",message="a target group's targets match its targetType: instanceRef or instanceID for instance, ip for ip, lambdaRef or lambdaFunctionARN for lambda (targets of an alb group are not managed)"
// +kubebuilder:validation:XValidation:rule="self.targetType != 'lambda' || !has(self.targets) || size(self.targets) <= 1",message="a target group of targetType lambda has one target"
type TargetGroup struct {
	// Name is the target group's name in AWS, unique in the account and region: 1 to 32
	// letters, digits and hyphens, not starting or ending with a hyphen. Listeners name it in
	// their forward action.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$`
	Name string `json:"name"`

	// Protocol is HTTP or HTTPS behind an Application Load Balancer, TCP, TLS, UDP or
	// TCP_UDP behind a Network Load Balancer; absent for Lambda targets.
	// +optional
	// +kubebuilder:validation:Enum=HTTP;HTTPS;TCP;TLS;UDP;TCP_UDP
	Protocol string `json:"protocol,omitempty"`

	// Port is the port the targets receive traffic on, unless a target is registered with
	// another; absent for Lambda targets.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// TargetType is instance, ip, lambda (Application Load Balancers) or alb (Network Load
	// Balancers).
	// +optional
	// +kubebuilder:default=instance
	// +kubebuilder:validation:Enum=instance;ip;lambda;alb
	TargetType string `json:"targetType,omitempty"`

	// HealthCheck overrides AWS's health check defaults; fields left out keep them.
	// +optional
	HealthCheck *HealthCheck `json:"healthCheck,omitempty"`

	// Targets are the group's targets, of its target type: instances (instanceRef or
	// instanceID), IP addresses (ip) or one Lambda function (lambdaRef or lambdaFunctionARN).
	// They are registered and deregistered as a set, and their health is reported in
	// status.targetGroups[].targets. Absent leaves the group's targets to others (an ECSService
	// registers its tasks itself); an empty list (targets: []) deregisters every target.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	Targets []Target `json:"targets"`
}

// Target is one target of a target group: set exactly one of instanceRef, instanceID, ip,
// lambdaRef and lambdaFunctionARN.
// +kubebuilder:validation:XValidation:rule="[has(self.instanceRef), has(self.instanceID), has(self.ip), has(self.lambdaRef), has(self.lambdaFunctionARN)].filter(x, x).size() == 1",message="set exactly one of instanceRef, instanceID, ip, lambdaRef and lambdaFunctionARN"
// +kubebuilder:validation:XValidation:rule="!(has(self.lambdaRef) || has(self.lambdaFunctionARN)) || (!has(self.port) && !has(self.availabilityZone))",message="a Lambda target takes neither port nor availabilityZone"
type Target struct {
	// InstanceRef names an EC2Instance in this namespace (compute family); the target waits
	// until it is Ready.
	// +optional
	InstanceRef *shared.Reference `json:"instanceRef,omitempty"`

	// InstanceID is an instance made outside this cluster, for example i-0123456789abcdef0.
	// +optional
	// +kubebuilder:validation:MaxLength=19
	// +kubebuilder:validation:Pattern=`^i-[0-9a-f]{8,17}$`
	InstanceID string `json:"instanceID,omitempty"`

	// IP is an IPv4 or IPv6 address of the VPC's subnets or, with availabilityZone all, one
	// outside the VPC (a peered VPC, on premises).
	// +optional
	// +kubebuilder:validation:MaxLength=45
	// +kubebuilder:validation:XValidation:rule="isIP(self)",message="ip is an IPv4 or IPv6 address"
	IP string `json:"ip,omitempty"`

	// LambdaRef names a LambdaFunction in this namespace (compute family). The load balancer
	// adds a statement to the function's resource policy that lets
	// elasticloadbalancing.amazonaws.com invoke it from this target group, and removes it when
	// the target goes.
	// +optional
	LambdaRef *shared.Reference `json:"lambdaRef,omitempty"`

	// LambdaFunctionARN is a function named by ARN instead of lambdaRef; the statement is
	// written only into a function an object of this namespace made, unless the administrator
	// allows more (foreign writes).
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:lambda:[a-z0-9-]+:[0-9]{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9$_-]+)?$`
	LambdaFunctionARN string `json:"lambdaFunctionARN,omitempty"`

	// Port is the port the target receives traffic on; absent takes the group's.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// AvailabilityZone is the zone of an IP address, or all for an address outside the VPC;
	// absent lets AWS find the zone of the address's subnet.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	AvailabilityZone string `json:"availabilityZone,omitempty"`
}

// HealthCheck is how a target group checks its targets. Only the fields set here are
// managed.
// +kubebuilder:validation:XValidation:rule="!has(self.timeoutSeconds) || !has(self.intervalSeconds) || self.timeoutSeconds < self.intervalSeconds",message="timeoutSeconds must be smaller than intervalSeconds"
type HealthCheck struct {
	// Enabled turns health checks on or off (they cannot be off for instance and ip targets).
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Protocol is HTTP, HTTPS or TCP.
	// +optional
	// +kubebuilder:validation:Enum=HTTP;HTTPS;TCP
	Protocol string `json:"protocol,omitempty"`

	// Port is traffic-port (the port each target receives traffic on) or a port number.
	// +optional
	// +kubebuilder:validation:MaxLength=11
	// +kubebuilder:validation:Pattern=`^(traffic-port|[1-9][0-9]{0,4})$`
	Port string `json:"port,omitempty"`

	// Path is the HTTP or HTTPS path to request, for example /healthz.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/`
	Path string `json:"path,omitempty"`

	// IntervalSeconds is the time between checks, 5 to 300 seconds.
	// +optional
	// +kubebuilder:validation:Minimum=5
	// +kubebuilder:validation:Maximum=300
	IntervalSeconds *int32 `json:"intervalSeconds,omitempty"`

	// TimeoutSeconds is how long a target may take to answer, 2 to 120 seconds.
	// +optional
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=120
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`

	// HealthyThresholdCount is how many successes make a target healthy, 2 to 10.
	// +optional
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=10
	HealthyThresholdCount *int32 `json:"healthyThresholdCount,omitempty"`

	// UnhealthyThresholdCount is how many failures make a target unhealthy, 2 to 10.
	// +optional
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=10
	UnhealthyThresholdCount *int32 `json:"unhealthyThresholdCount,omitempty"`

	// Matcher is the HTTP codes that mean healthy: codes and ranges such as 200, 200,202 or
	// 200-299.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[0-9]{3}(-[0-9]{3})?(,[0-9]{3}(-[0-9]{3})?)*$`
	Matcher string `json:"matcher,omitempty"`
}

// Listener accepts connections on one port and protocol and applies its default action.
// +kubebuilder:validation:XValidation:rule="(self.protocol in ['HTTPS', 'TLS']) == (has(self.certificateARN) || has(self.certificateRef))",message="HTTPS and TLS listeners need certificateARN or certificateRef; other protocols take neither"
// +kubebuilder:validation:XValidation:rule="!(has(self.certificateARN) && has(self.certificateRef))",message="set at most one of certificateARN and certificateRef"
// +kubebuilder:validation:XValidation:rule="(self.protocol in ['HTTPS', 'TLS']) || !has(self.sslPolicy)",message="sslPolicy is only for HTTPS and TLS listeners"
type Listener struct {
	// Port is the port the load balancer listens on.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`

	// Protocol is HTTP or HTTPS for an Application Load Balancer, TCP, TLS, UDP or TCP_UDP
	// for a Network Load Balancer.
	// +kubebuilder:validation:Enum=HTTP;HTTPS;TCP;TLS;UDP;TCP_UDP
	Protocol string `json:"protocol"`

	// CertificateARN is the default server certificate of an HTTPS or TLS listener, an ACM
	// (arn:aws:acm:...) or IAM (arn:aws:iam:...) certificate.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:(acm|iam):`
	CertificateARN string `json:"certificateARN,omitempty"`

	// CertificateRef names an ACMCertificate in this namespace (security family) whose
	// certificate is the listener's default certificate, instead of certificateARN; the load
	// balancer waits until the certificate is issued (Ready).
	// +optional
	CertificateRef *shared.Reference `json:"certificateRef,omitempty"`

	// SSLPolicy is the security policy of an HTTPS or TLS listener, for example
	// ELBSecurityPolicy-TLS13-1-2-2021-06; absent takes AWS's default.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	SSLPolicy string `json:"sslPolicy,omitempty"`

	// DefaultAction is what the listener does with every connection or request that no rule
	// matches (the listener's default rule).
	DefaultAction Action `json:"defaultAction"`

	// Rules route the requests of an Application Load Balancer's HTTP or HTTPS listener by
	// their host, path, headers, query string, source address or method, the lowest priority
	// first; a request no rule matches gets the default action. Rules are a field of the
	// listener rather than a kind of their own because they exist only within their listener,
	// forward to this object's target groups by name, and form one set of priorities that
	// changes at once (a swap of two priorities is one SetRulePriorities call); one object keeps
	// the whole routing table reviewable in one diff. They are reconciled as a set: the rules of
	// the listener that the spec lacks are deleted, those that differ are modified, priorities
	// that moved are set in one call, and rules changed in AWS are brought back.
	// +optional
	// +listType=map
	// +listMapKey=priority
	// +kubebuilder:validation:MaxItems=100
	Rules []ListenerRule `json:"rules,omitempty"`
}

// ListenerRule is one rule of a listener: when a request matches every condition, the action
// applies.
type ListenerRule struct {
	// Priority orders the listener's rules, 1 (evaluated first) to 50000, each used once.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=50000
	Priority int32 `json:"priority"`

	// Conditions are what a request must match, all of them: at most one each of hostHeader,
	// pathPattern, httpRequestMethod and sourceIP, any number of httpHeader and queryString,
	// and, as AWS allows, at most five values across the rule.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:XValidation:rule="self.filter(c, has(c.hostHeader)).size() <= 1 && self.filter(c, has(c.pathPattern)).size() <= 1 && self.filter(c, has(c.httpRequestMethod)).size() <= 1 && self.filter(c, has(c.sourceIP)).size() <= 1",message="a rule has at most one condition each of hostHeader, pathPattern, httpRequestMethod and sourceIP"
	Conditions []RuleCondition `json:"conditions"`

	// Action is what the load balancer does with a matching request.
	Action Action `json:"action"`
}

// RuleCondition is one condition of a listener rule; set exactly one field. Values may hold
// the wildcards * and ? (except sourceIP and httpRequestMethod); a condition with several
// values matches when one of them does.
// +kubebuilder:validation:XValidation:rule="[has(self.hostHeader), has(self.pathPattern), has(self.httpHeader), has(self.queryString), has(self.sourceIP), has(self.httpRequestMethod)].filter(x, x).size() == 1",message="set exactly one of hostHeader, pathPattern, httpHeader, queryString, sourceIP and httpRequestMethod"
type RuleCondition struct {
	// HostHeader matches the Host header, for example api.example.com or *.example.com.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=128
	HostHeader []string `json:"hostHeader,omitempty"`

	// PathPattern matches the request's path, case-sensitive, for example /api/*.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=128
	PathPattern []string `json:"pathPattern,omitempty"`

	// HTTPHeader matches a header other than Host by name.
	// +optional
	HTTPHeader *HTTPHeaderCondition `json:"httpHeader,omitempty"`

	// QueryString matches key/value pairs of the query string; a pair without key matches the
	// value of any key.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	QueryString []QueryStringPair `json:"queryString,omitempty"`

	// SourceIP matches the client's address (the X-Forwarded-For header is not looked at), by
	// CIDR blocks such as 192.0.2.0/24 or 2001:db8::/32.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=43
	// +kubebuilder:validation:XValidation:rule="self.all(c, isCIDR(c))",message="sourceIP holds CIDR blocks"
	SourceIP []string `json:"sourceIP,omitempty"`

	// HTTPRequestMethod matches the method, for example GET or POST (case-sensitive).
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=40
	// +kubebuilder:validation:items:Pattern=`^[A-Z_-]+$`
	HTTPRequestMethod []string `json:"httpRequestMethod,omitempty"`
}

// HTTPHeaderCondition matches the values of one HTTP header.
type HTTPHeaderCondition struct {
	// Name is the header's name, for example User-Agent (not Host: use hostHeader).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9!#$%&'*+.^_|~-]+$`
	Name string `json:"name"`

	// Values are the header values that match, case-insensitive.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=128
	Values []string `json:"values"`
}

// QueryStringPair is one key/value pair of a query string condition.
type QueryStringPair struct {
	// Key is the query parameter's name; absent matches any.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Key string `json:"key,omitempty"`

	// Value is the parameter's value.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	Value string `json:"value"`
}

// Action is a listener's default action: forward to a target group, or, on an Application
// Load Balancer, redirect or answer with a fixed response.
// +kubebuilder:validation:XValidation:rule="[has(self.forward), has(self.redirect), has(self.fixedResponse)].filter(x, x).size() == 1",message="set exactly one of forward, redirect and fixedResponse"
type Action struct {
	// Forward sends traffic to one target group.
	// +optional
	Forward *ForwardAction `json:"forward,omitempty"`

	// Redirect answers HTTP requests with a redirect (Application Load Balancers).
	// +optional
	Redirect *RedirectAction `json:"redirect,omitempty"`

	// FixedResponse answers HTTP requests itself (Application Load Balancers).
	// +optional
	FixedResponse *FixedResponseAction `json:"fixedResponse,omitempty"`
}

// ForwardAction names the target group that receives the traffic, or, on an Application Load
// Balancer, several target groups that share it by weight.
// +kubebuilder:validation:XValidation:rule="[has(self.targetGroup), has(self.targetGroupARN), has(self.targetGroups)].filter(x, x).size() == 1",message="set exactly one of targetGroup, targetGroupARN and targetGroups"
// +kubebuilder:validation:XValidation:rule="!has(self.stickiness) || has(self.targetGroups)",message="stickiness is for a forward to weighted targetGroups"
type ForwardAction struct {
	// TargetGroup is the name of one of spec.targetGroups.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	TargetGroup string `json:"targetGroup,omitempty"`

	// TargetGroupARN is a target group made outside this object.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:elasticloadbalancing:[a-z0-9-]+:[0-9]{12}:targetgroup/`
	TargetGroupARN string `json:"targetGroupARN,omitempty"`

	// TargetGroups share the traffic by weight (Application Load Balancers): each group gets
	// its weight's share of the sum, for example 90 and 10 for a canary.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	TargetGroups []WeightedTargetGroup `json:"targetGroups,omitempty"`

	// Stickiness keeps a client on the target group it was first sent to, across the weighted
	// targetGroups.
	// +optional
	Stickiness *GroupStickiness `json:"stickiness,omitempty"`
}

// WeightedTargetGroup is one target group of a weighted forward.
// +kubebuilder:validation:XValidation:rule="[has(self.name), has(self.arn)].filter(x, x).size() == 1",message="set exactly one of name and arn"
type WeightedTargetGroup struct {
	// Name is the name of one of spec.targetGroups.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	Name string `json:"name,omitempty"`

	// ARN is a target group made outside this object.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z-]*:elasticloadbalancing:[a-z0-9-]+:[0-9]{12}:targetgroup/`
	ARN string `json:"arn,omitempty"`

	// Weight is the group's share of the traffic, 0 to 999; absent is 1.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=999
	Weight *int32 `json:"weight,omitempty"`
}

// GroupStickiness is the target group stickiness of a weighted forward.
// +kubebuilder:validation:XValidation:rule="!self.enabled || has(self.durationSeconds)",message="stickiness that is enabled needs durationSeconds"
type GroupStickiness struct {
	// Enabled turns stickiness on.
	Enabled bool `json:"enabled"`

	// DurationSeconds is how long a client stays on its target group, 1 to 604800 seconds
	// (7 days); needed when enabled.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=604800
	DurationSeconds *int32 `json:"durationSeconds,omitempty"`
}

// RedirectAction redirects HTTP requests. Absent parts keep the request's; #{host}, #{path},
// #{port}, #{protocol} and #{query} stand for them in the others.
type RedirectAction struct {
	// Protocol is HTTP, HTTPS or #{protocol}.
	// +optional
	// +kubebuilder:validation:Enum=HTTP;HTTPS;"#{protocol}"
	Protocol string `json:"protocol,omitempty"`

	// Port is a port number or #{port}.
	// +optional
	// +kubebuilder:validation:MaxLength=7
	// +kubebuilder:validation:Pattern=`^([1-9][0-9]{0,4}|#\{port\})$`
	Port string `json:"port,omitempty"`

	// Host is the host name, for example www.example.com.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Host string `json:"host,omitempty"`

	// Path is the absolute path, starting with /.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Path string `json:"path,omitempty"`

	// Query is the query string, without the leading ?.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	Query string `json:"query,omitempty"`

	// StatusCode is HTTP_301 (permanent) or HTTP_302 (temporary).
	// +kubebuilder:validation:Enum=HTTP_301;HTTP_302
	StatusCode string `json:"statusCode"`
}

// FixedResponseAction answers HTTP requests with a fixed status and body.
type FixedResponseAction struct {
	// StatusCode is a 2XX, 4XX or 5XX HTTP status code.
	// +kubebuilder:validation:Pattern=`^(2|4|5)[0-9][0-9]$`
	StatusCode string `json:"statusCode"`

	// ContentType is text/plain, text/css, text/html, application/javascript or
	// application/json.
	// +optional
	// +kubebuilder:validation:Enum=text/plain;text/css;text/html;application/javascript;application/json
	ContentType string `json:"contentType,omitempty"`

	// MessageBody is the body of the answer, up to 1024 characters.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	MessageBody string `json:"messageBody,omitempty"`
}

// LoadBalancerStatus is the observed state of a load balancer.
type LoadBalancerStatus struct {
	shared.ManagedStatus `json:",inline"`

	// ARN is the load balancer's ARN.
	// +optional
	ARN string `json:"arn,omitempty" output:""`

	// DNSName is the load balancer's DNS name, for CNAME or alias records.
	// +optional
	DNSName string `json:"dnsName,omitempty" output:""`

	// CanonicalHostedZoneID is the Route 53 hosted zone of the DNS name, for alias records.
	// +optional
	CanonicalHostedZoneID string `json:"canonicalHostedZoneID,omitempty" output:""`

	// State is provisioning, active, active_impaired or failed.
	// +optional
	State string `json:"state,omitempty"`

	// VPCID is the id of the load balancer's VPC, where its target groups are created.
	// +optional
	VPCID string `json:"vpcID,omitempty" output:""`

	// TargetGroups are the ARNs of the target groups this object created, by name.
	// +optional
	TargetGroups []TargetGroupStatus `json:"targetGroups,omitempty"`

	// Listeners are the ARNs of the load balancer's listeners, by port.
	// +optional
	Listeners []ListenerStatus `json:"listeners,omitempty"`

	// InvokeGrants are the statements that let the target groups invoke their Lambda
	// functions, removed when the target goes.
	// +optional
	InvokeGrants []InvokeGrant `json:"invokeGrants,omitempty"`
}

// TargetGroupStatus is one target group this object created.
type TargetGroupStatus struct {
	// Name is the target group's name.
	Name string `json:"name"`
	// ARN is the target group's ARN.
	ARN string `json:"arn"`
	// Targets are the health of the targets the spec registers (groups whose spec lists
	// targets), as DescribeTargetHealth reported it at the last sync.
	// +optional
	Targets []TargetHealthStatus `json:"targets,omitempty"`
}

// TargetHealthStatus is the health of one registered target.
type TargetHealthStatus struct {
	// ID is the instance id, IP address or Lambda function ARN.
	ID string `json:"id"`
	// Port is the port the target receives traffic on (none for a Lambda function).
	// +optional
	Port int32 `json:"port,omitempty"`
	// State is initial, healthy, unhealthy, unused, draining or unavailable.
	State string `json:"state"`
	// Reason is AWS's reason code for a state other than healthy, for example
	// Elb.RegistrationInProgress or Target.FailedHealthChecks.
	// +optional
	Reason string `json:"reason,omitempty"`
}

// ListenerStatus is one listener of the load balancer.
type ListenerStatus struct {
	// Port is the listener's port.
	Port int32 `json:"port"`
	// ARN is the listener's ARN.
	ARN string `json:"arn"`
	// Rules are the ARNs of the listener's rules, by priority (the default rule is not listed).
	// +optional
	Rules []RuleStatus `json:"rules,omitempty"`
}

// RuleStatus is one rule of a listener.
type RuleStatus struct {
	// Priority is the rule's priority.
	Priority int32 `json:"priority"`
	// ARN is the rule's ARN.
	ARN string `json:"arn"`
}

// InvokeGrant is a statement the load balancer added to a Lambda function's resource policy,
// letting one of its target groups invoke the function.
type InvokeGrant struct {
	// FunctionARN is the function's ARN.
	FunctionARN string `json:"functionARN"`
	// TargetGroupARN is the target group the statement lets invoke the function.
	TargetGroupARN string `json:"targetGroupARN"`
}
