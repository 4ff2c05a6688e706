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

	// DefaultAction is what the listener does with every connection or request.
	DefaultAction Action `json:"defaultAction"`
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

// ForwardAction names the target group that receives the traffic.
// +kubebuilder:validation:XValidation:rule="[has(self.targetGroup), has(self.targetGroupARN)].filter(x, x).size() == 1",message="set exactly one of targetGroup and targetGroupARN"
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
}

// TargetGroupStatus is one target group this object created.
type TargetGroupStatus struct {
	// Name is the target group's name.
	Name string `json:"name"`
	// ARN is the target group's ARN.
	ARN string `json:"arn"`
}

// ListenerStatus is one listener of the load balancer.
type ListenerStatus struct {
	// Port is the listener's port.
	Port int32 `json:"port"`
	// ARN is the listener's ARN.
	ARN string `json:"arn"`
}
