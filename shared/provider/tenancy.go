package provider

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/guardrails"
)

// Tenancy is what the cluster administrator lets namespaced AWSProviders borrow from the
// operator (operator flags, chart values). ClusterAWSProviders are the administrator's own and
// are not restricted by it.
type Tenancy struct {
	// OperatorIdentityNamespaces are the namespaces whose AWSProviders may use the operator's
	// own identity (IRSA, EKS Pod Identity, the default chain) instead of static keys; "*"
	// allows every namespace.
	OperatorIdentityNamespaces []string
	// AssumeRoles restrict which role ARNs a namespace's AWSProviders may assume. Empty allows
	// any role; otherwise a role must match a rule of the provider's namespace.
	AssumeRoles []RoleRule
	// AllowEndpointOverride honours AWSProviders' spec.endpoint. Even then, an endpoint that
	// names a link-local address (instance metadata), a loopback address (unless
	// AllowLoopbackEndpoints), an in-cluster service or the API server is refused, and a name
	// that resolves to a refused address is refused when it is dialled.
	AllowEndpointOverride bool
	// AllowLoopbackEndpoints lets an AWSProvider's spec.endpoint name a loopback address
	// (127.0.0.0/8, ::1, localhost), as the sandbox's emulator in the operator's own process
	// needs.
	AllowLoopbackEndpoints bool
	// APIServer is the URL (or host:port) of the Kubernetes API server the operator talks to;
	// an AWSProvider's spec.endpoint may not name its host.
	APIServer string
	// InClusterEndpoints let the AWSProviders of a namespace name, in spec.endpoint, in-cluster
	// hosts (a LocalStack service such as "localstack" or "localstack.testing.svc") that are
	// otherwise refused; such a host is resolved through the cluster's DNS search list.
	// Link-local and loopback addresses stay refused.
	InClusterEndpoints []HostRule
	// STSEndpoint is where the operator's own identity is exchanged for roles (web identity
	// tokens, the default chain's credentials); empty means AWS's STS for the region.
	STSEndpoint string
}

// HostRule lets the AWSProviders of namespaces matching Namespace name in-cluster hosts
// matching HostPattern in spec.endpoint; both are patterns in which "*" matches any run of
// characters.
type HostRule struct {
	Namespace   string
	HostPattern string
}

// ParseHostRule parses "NAMESPACE=HOST_PATTERN", the form of the --in-cluster-endpoints flag.
func ParseHostRule(s string) (HostRule, error) {
	ns, pattern, ok := strings.Cut(s, "=")
	if !ok || ns == "" || pattern == "" {
		return HostRule{}, fmt.Errorf("in-cluster endpoint rule %q is not NAMESPACE=HOST_PATTERN", s)
	}
	return HostRule{Namespace: ns, HostPattern: strings.ToLower(pattern)}, nil
}

// inClusterAllowed reports whether a rule lets namespace ns name host, a lower-case name
// without a trailing dot.
func (t *Tenancy) inClusterAllowed(ns, host string) bool {
	for _, r := range t.InClusterEndpoints {
		if guardrails.Match(r.Namespace, ns) && guardrails.Match(r.HostPattern, host) {
			return true
		}
	}
	return false
}

// RoleRule lets the AWSProviders of namespaces matching Namespace assume roles matching
// RoleARNPattern; both are patterns in which "*" matches any run of characters.
type RoleRule struct {
	Namespace      string
	RoleARNPattern string
}

// ParseRoleRule parses "NAMESPACE=ARN_PATTERN", the form of the --assume-role-policy flag.
func ParseRoleRule(s string) (RoleRule, error) {
	ns, pattern, ok := strings.Cut(s, "=")
	if !ok || ns == "" || pattern == "" {
		return RoleRule{}, fmt.Errorf("assume-role rule %q is not NAMESPACE=ROLE_ARN_PATTERN", s)
	}
	return RoleRule{Namespace: ns, RoleARNPattern: pattern}, nil
}

// matches reports whether the rule lets namespace ns assume role.
func (r RoleRule) matches(ns, role string) bool {
	return guardrails.Match(r.Namespace, ns) && guardrails.Match(r.RoleARNPattern, role)
}

// check returns why the tenancy settings refuse p, or nil. A nil Tenancy refuses nothing.
func (t *Tenancy) check(p v1alpha1.ProviderObject) error {
	if t == nil || p.AdministratorOwned() {
		return nil
	}
	spec, ns := p.ProviderSpec(), p.GetNamespace()
	static := spec.AccessKeyIDRef != nil
	if spec.Endpoint != "" && !t.AllowEndpointOverride {
		return &Error{Reason: condition.ReasonEndpointNotAllowed, Message: "spec.endpoint is set, and this operator does not honour " +
			"AWSProviders' endpoints (operator flag --allow-endpoint-override, chart value tenancy.allowEndpointOverride)"}
	}
	if spec.Endpoint != "" {
		if err := t.checkEndpoint(ns, spec.Endpoint); err != nil {
			return err
		}
	}
	if spec.Endpoint != "" && !static {
		return &Error{Reason: condition.ReasonEndpointNeedsStaticKeys, Message: "spec.endpoint is set on a provider without static keys; " +
			"the operator's own identity is never sent to an endpoint chosen in a namespace: give accessKeyIDRef and secretAccessKeyRef"}
	}
	if !static && !containsOrStar(t.OperatorIdentityNamespaces, ns) {
		return &Error{Reason: condition.ReasonOperatorIdentityNotAllowed, Message: fmt.Sprintf("namespace %q may not use the operator's own identity "+
			"(operator flag --operator-identity-namespaces, chart value tenancy.operatorIdentityNamespaces); give static keys "+
			"with accessKeyIDRef and secretAccessKeyRef, or use a ClusterAWSProvider the administrator allows", ns)}
	}
	if spec.RoleARN != "" && len(t.AssumeRoles) > 0 && !t.mayAssume(ns, spec.RoleARN) {
		return &Error{Reason: condition.ReasonRoleNotAllowed, Message: fmt.Sprintf("namespace %q may not assume role %s "+
			"(operator flag --assume-role-policy, chart value tenancy.assumeRolePolicy)", ns, spec.RoleARN)}
	}
	return nil
}

// mayAssume reports whether a rule lets namespace ns assume role.
func (t *Tenancy) mayAssume(ns, role string) bool {
	for _, r := range t.AssumeRoles {
		if r.matches(ns, role) {
			return true
		}
	}
	return false
}

func containsOrStar(list []string, s string) bool {
	for _, v := range list {
		if v == "*" || v == s {
			return true
		}
	}
	return false
}

// Addresses a namespace's spec.endpoint may never reach: the EC2 instance metadata service
// over IPv6 (a unique local address, not link-local) besides the link-local ranges, and the
// names cloud providers give their metadata services.
var (
	metadataIPv6  = netip.MustParseAddr("fd00:ec2::254")
	metadataNames = map[string]bool{"instance-data": true, "instance-data.ec2.internal": true, "metadata.google.internal": true, "metadata": true}
	// clusterSuffixes are the DNS suffixes of in-cluster services.
	clusterSuffixes = []string{".svc", ".cluster.local", ".svc.cluster.local"}
)

// endpointFlags names the operator flags and chart values that govern spec.endpoint, for
// refusal messages.
const endpointFlags = "(operator flags --allow-endpoint-override, --allow-loopback-endpoints and --in-cluster-endpoints, " +
	"chart values tenancy.allowEndpointOverride, tenancy.allowLoopbackEndpoints and tenancy.inClusterEndpoints)"

// checkEndpoint returns why a provider of namespace ns may not send requests to endpoint, or
// nil.
// Only http and https are accepted; the host may not be a link-local address (instance
// metadata included), a loopback address unless AllowLoopbackEndpoints, an unspecified
// address, an in-cluster service name (a name without a dot, which only the cluster's DNS
// search list completes, kubernetes.default, *.svc, *.cluster.local) unless an
// InClusterEndpoints rule lets ns name it, a metadata service name, or the API server's host
// and port. Names are not resolved here: what they resolve to is checked when
// a connection is made (dialControl), so a record that changes later is caught too.
func (t *Tenancy) checkEndpoint(ns, endpoint string) error {
	refuse := func(why string) error {
		return &Error{Reason: condition.ReasonEndpointAddressNotAllowed, Message: fmt.Sprintf(
			"spec.endpoint %q is refused: %s %s", endpoint, why, endpointFlags)}
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return refuse("it is not a URL")
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return refuse("only http and https endpoints are honoured")
	}
	if u.User != nil {
		return refuse("it carries user information")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return refuse("it names no host")
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if why := t.refusedAddr(addr); why != "" {
			return refuse(why)
		}
		return t.checkAPIServer(u, refuse)
	}
	labels := strings.Split(host, ".")
	if last := labels[len(labels)-1]; last != "" && last[0] >= '0' && last[0] <= '9' {
		// 2130706433, 0x7f.1 and 127.1 are loopback to some resolvers; no DNS name ends with
		// a label that starts with a digit.
		return refuse("its host is a number but not an IP address")
	}
	switch {
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		if !t.AllowLoopbackEndpoints {
			return refuse("it is a loopback address")
		}
	case metadataNames[host]:
		return refuse("it names an instance metadata service")
	case t.inClusterAllowed(ns, host):
		return nil
	case len(labels) == 1:
		return refuse("a name without a dot is completed by the cluster's DNS search list to an in-cluster service")
	case host == "kubernetes.default" || hasAnySuffix(host, clusterSuffixes):
		return refuse("it names an in-cluster service")
	}
	return t.checkAPIServer(u, refuse)
}

// checkAPIServer refuses u when it names the API server's host and port.
func (t *Tenancy) checkAPIServer(u *url.URL, refuse func(string) error) error {
	if api := apiServerAddress(t.APIServer); api != "" && api == hostPort(u) {
		return refuse("it names the Kubernetes API server")
	}
	return nil
}

// apiServerAddress returns the host:port of the API server address s, a URL or host:port.
func apiServerAddress(s string) string {
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return hostPort(u)
}

// hostPort returns the lower-case host of u without a trailing dot, and its port, the
// scheme's default when u names none.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if strings.EqualFold(u.Scheme, "http") {
			port = "80"
		}
	}
	return net.JoinHostPort(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), port)
}

// refusedAddr returns why a namespace's endpoint may not reach addr, or "".
func (t *Tenancy) refusedAddr(addr netip.Addr) string {
	addr = addr.Unmap()
	switch {
	case addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() || addr == metadataIPv6:
		return "it is a link-local address (instance metadata)"
	case addr.IsUnspecified():
		return "it is an unspecified address, which reaches the operator's own host"
	case addr.IsLoopback() && !t.AllowLoopbackEndpoints:
		return "it is a loopback address"
	}
	return ""
}

// dialControl refuses, when a connection is made, an address a namespace's endpoint may not
// reach, whatever name led to it. It is the net.Dialer Control of the HTTP client of
// AWSProviders with spec.endpoint.
func (t *Tenancy) dialControl(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("split dial address %q: %w", address, err)
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("dial address %q is not an IP address: %w", address, err)
	}
	if why := t.refusedAddr(addr); why != "" {
		return &Error{Reason: condition.ReasonEndpointAddressNotAllowed, Message: fmt.Sprintf(
			"spec.endpoint resolves to %s, which is refused: %s %s", addr, why, endpointFlags)}
	}
	return nil
}

// fullyQualifiedDial returns a transport option for the providers of namespace ns that wraps
// the transport's dialer so that a host name is looked up as given, never completed by the
// cluster's DNS search list ("api.example" would otherwise be tried as
// "api.example.<namespace>.svc.cluster.local" first, an in-cluster service), except the hosts
// an InClusterEndpoints rule lets ns name.
func (t *Tenancy) fullyQualifiedDial(ns string) func(*http.Transport) {
	return func(tr *http.Transport) {
		dial := tr.DialContext
		if dial == nil {
			dial = (&net.Dialer{}).DialContext
		}
		tr.DialContext = func(ctx context.Context, network, address string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(address)
			if err == nil && !strings.HasSuffix(host, ".") && !t.inClusterAllowed(ns, strings.ToLower(host)) {
				if _, ipErr := netip.ParseAddr(host); ipErr != nil {
					address = net.JoinHostPort(host+".", port)
				}
			}
			return dial(ctx, network, address)
		}
	}
}

func hasAnySuffix(s string, suffixes []string) bool {
	for _, suffix := range suffixes {
		if strings.HasSuffix(s, suffix) {
			return true
		}
	}
	return false
}
