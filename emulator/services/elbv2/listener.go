package elbv2

import (
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listener is one listener of a load balancer, with its default actions.
type listener struct {
	arn, lb, sslPolicy string
	protocol           types.ProtocolEnum
	port               int32
	certs              []types.Certificate
	alpn               []string
	actions            []types.Action
}

// listenerChange is what CreateListener and ModifyListener say of a listener.
type listenerChange struct {
	protocol  types.ProtocolEnum
	port      *int32
	sslPolicy *string
	certs     []types.Certificate
	alpn      []string
	actions   []types.Action
}

// defaultSSLPolicy is the security policy of HTTPS and TLS listeners created without one.
const defaultSSLPolicy = "ELBSecurityPolicy-2016-08"

// sslPolicies are the predefined security policies (DescribeSSLPolicies), besides the FIPS ones.
var sslPolicies = []string{"ELBSecurityPolicy-2016-08", "ELBSecurityPolicy-TLS-1-0-2015-04", "ELBSecurityPolicy-TLS-1-1-2017-01",
	"ELBSecurityPolicy-TLS-1-2-2017-01", "ELBSecurityPolicy-TLS-1-2-Ext-2018-06", "ELBSecurityPolicy-FS-2018-06",
	"ELBSecurityPolicy-FS-1-1-2019-08", "ELBSecurityPolicy-FS-1-2-2019-08", "ELBSecurityPolicy-FS-1-2-Res-2019-08",
	"ELBSecurityPolicy-FS-1-2-Res-2020-10", "ELBSecurityPolicy-2015-05", "ELBSecurityPolicy-TLS13-1-0-2021-06",
	"ELBSecurityPolicy-TLS13-1-1-2021-06", "ELBSecurityPolicy-TLS13-1-2-2021-06", "ELBSecurityPolicy-TLS13-1-2-Res-2021-06",
	"ELBSecurityPolicy-TLS13-1-2-Ext1-2021-06", "ELBSecurityPolicy-TLS13-1-2-Ext2-2021-06", "ELBSecurityPolicy-TLS13-1-3-2021-06"}

// certificateARN matches the ARNs of ACM certificates and IAM server certificates.
var certificateARN = regexp.MustCompile(`^arn:aws[a-z-]*:(acm:[a-z0-9-]+:\d{12}:certificate/[0-9a-f-]+|iam::\d{12}:server-certificate/.+)$`)

// listenerProtocols are the listener protocols of each type of load balancer, as AWS's error
// lists them.
var listenerProtocols = map[types.LoadBalancerTypeEnum][]types.ProtocolEnum{
	types.LoadBalancerTypeEnumApplication: {types.ProtocolEnumHttps, types.ProtocolEnumHttp},
	types.LoadBalancerTypeEnumNetwork:     {types.ProtocolEnumTls, types.ProtocolEnumTcp, types.ProtocolEnumTcpUdp, types.ProtocolEnumUdp},
}

// targetProtocols are the target group protocols a Network Load Balancer listener forwards to.
var targetProtocols = map[types.ProtocolEnum][]types.ProtocolEnum{
	types.ProtocolEnumTcp:    {types.ProtocolEnumTcp, types.ProtocolEnumTcpUdp},
	types.ProtocolEnumTls:    {types.ProtocolEnumTcp, types.ProtocolEnumTls},
	types.ProtocolEnumUdp:    {types.ProtocolEnumUdp, types.ProtocolEnumTcpUdp},
	types.ProtocolEnumTcpUdp: {types.ProtocolEnumTcpUdp},
}

func (l *listener) secure() bool {
	return l.protocol == types.ProtocolEnumHttps || l.protocol == types.ProtocolEnumTls
}

// ruleARNPrefix is how the ARNs of the listener's rules begin: its own ARN under listener-rule/,
// followed by a slash.
func (l *listener) ruleARNPrefix() string {
	return strings.Replace(l.arn, ":listener/", ":listener-rule/", 1) + "/"
}

// forwardsTo reports whether one of the listener's actions forwards to a target group.
func (l *listener) forwardsTo(tg string) bool {
	return slices.Contains(forwardTargets(l.actions), tg)
}

// forwardTargets returns the target groups actions forward to.
func forwardTargets(actions []types.Action) []string {
	var out []string
	for _, a := range actions {
		if a.TargetGroupArn != nil {
			out = append(out, *a.TargetGroupArn)
		}
		if a.ForwardConfig != nil {
			for _, t := range a.ForwardConfig.TargetGroups {
				out = append(out, aws.ToString(t.TargetGroupArn))
			}
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}

func (l *listener) describe() types.Listener {
	d := types.Listener{ListenerArn: aws.String(l.arn), LoadBalancerArn: aws.String(l.lb), Port: aws.Int32(l.port), Protocol: l.protocol,
		DefaultActions: slices.Clone(l.actions), Certificates: slices.Clone(l.certs), AlpnPolicy: slices.Clone(l.alpn)}
	if l.sslPolicy != "" {
		d.SslPolicy = aws.String(l.sslPolicy)
	}
	return d
}

// apply returns l with the change, checked for a listener of lb.
func (c listenerChange) apply(r *region, lb *loadBalancer, l listener) (*listener, error) {
	if c.protocol != "" {
		if !slices.Contains(listenerProtocols[lb.typ], c.protocol) {
			names := make([]string, 0, 4)
			for _, p := range listenerProtocols[lb.typ] {
				names = append(names, string(p))
			}
			return nil, validation("Listener protocol '%s' must be one of '%s'", c.protocol, strings.Join(names, ", "))
		}
		l.protocol = c.protocol
	}
	if c.port != nil {
		if err := checkPort(c.port); err != nil {
			return nil, err
		}
		l.port = *c.port
	}
	if err := c.applyTLS(&l); err != nil {
		return nil, err
	}
	if c.actions != nil {
		actions, err := r.checkActions(lb, &l, c.actions)
		if err != nil {
			return nil, err
		}
		l.actions = actions
	}
	for _, other := range r.listeners {
		if other.lb == lb.arn && other.port == l.port && other.arn != l.arn {
			return nil, core.Errorf("DuplicateListener", "A listener already exists on port %d for this load balancer", l.port)
		}
	}
	return &l, nil
}

// applyTLS applies the certificate, security policy and ALPN policy of HTTPS and TLS listeners;
// other listeners have none.
func (c listenerChange) applyTLS(l *listener) error {
	if !l.secure() {
		if len(c.certs) > 0 || c.sslPolicy != nil {
			return validation("Certificates and SSL policies can only be specified for HTTPS and TLS listeners")
		}
		l.certs, l.sslPolicy, l.alpn = nil, "", nil
		return nil
	}
	if c.certs != nil {
		if len(c.certs) != 1 {
			return validation("Exactly one default certificate must be specified")
		}
		arn := aws.ToString(c.certs[0].CertificateArn)
		if !certificateARN.MatchString(arn) {
			return core.Errorf("CertificateNotFound", "Certificate '%s' not found", arn)
		}
		l.certs = []types.Certificate{{CertificateArn: aws.String(arn)}}
	}
	if len(l.certs) == 0 {
		return validation("A certificate must be specified for %s listeners", l.protocol)
	}
	if c.sslPolicy != nil {
		p := *c.sslPolicy
		if !slices.Contains(sslPolicies, p) && !strings.HasPrefix(p, "ELBSecurityPolicy-TLS13-1-2-FIPS-") {
			return core.Errorf("SSLPolicyNotFound", "SSL policy '%s' not found", p)
		}
		l.sslPolicy = p
	}
	if l.sslPolicy == "" {
		l.sslPolicy = defaultSSLPolicy
	}
	if c.alpn != nil {
		if l.protocol != types.ProtocolEnumTls {
			return validation("An ALPN policy can only be specified for TLS listeners")
		}
		if len(c.alpn) != 1 || !slices.Contains([]string{"HTTP1Only", "HTTP2Only", "HTTP2Optional", "HTTP2Preferred", "None"}, c.alpn[0]) {
			return validation("ALPN policy must be one of 'HTTP1Only, HTTP2Only, HTTP2Optional, HTTP2Preferred, None'")
		}
		l.alpn = slices.Clone(c.alpn)
	}
	return nil
}

func (b *Backend) createListener(call *core.Call, in *elb.CreateListenerInput) (*elb.CreateListenerOutput, error) {
	if in.Protocol == "" {
		return nil, validation("A listener protocol must be specified")
	}
	if err := checkPort(in.Port); err != nil {
		return nil, err
	}
	if len(in.DefaultActions) == 0 {
		return nil, validation("At least one default action must be specified")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.CreateListenerOutput, error) {
		lb, err := r.lb(in.LoadBalancerArn)
		if err != nil {
			return nil, err
		}
		tags, err := requestTags(in.Tags)
		if err != nil {
			return nil, err
		}
		c := listenerChange{in.Protocol, in.Port, in.SslPolicy, in.Certificates, in.AlpnPolicy, in.DefaultActions}
		for _, other := range r.listeners {
			if other.lb == lb.arn && other.port == *in.Port {
				// The same settings again answer with the listener; other settings are a duplicate.
				if same, err := c.apply(r, lb, listener{arn: other.arn, lb: lb.arn}); err == nil && same.equal(other) {
					return &elb.CreateListenerOutput{Listeners: []types.Listener{other.describe()}}, nil
				}
				return nil, core.Errorf("DuplicateListener", "A listener already exists on port %d for this load balancer", *in.Port)
			}
		}
		l, err := c.apply(r, lb, listener{lb: lb.arn})
		if err != nil {
			return nil, err
		}
		l.arn = r.scope.ARN("elasticloadbalancing", "listener/"+strings.SplitN(lb.arn, ":loadbalancer/", 2)[1]+"/"+newID())
		if err := r.tags.Merge(tags, l.arn); err != nil {
			return nil, err
		}
		r.listeners[l.arn] = l
		b.recordCertificateUsers(r, certificateARNs(l.certs))
		return &elb.CreateListenerOutput{Listeners: []types.Listener{l.describe()}}, nil
	})
}

// equal reports whether two listeners have the same settings.
func (l *listener) equal(other *listener) bool {
	a, b := l.describe(), other.describe()
	return reflect.DeepEqual(a, b)
}

// listener returns the listener an ARN names.
func (r *region) listener(arn *string) (*listener, error) {
	if l := r.listeners[aws.ToString(arn)]; l != nil {
		return l, nil
	}
	return nil, core.Errorf("ListenerNotFound", "Listener '%s' not found", aws.ToString(arn))
}

func (b *Backend) describeListeners(call *core.Call, in *elb.DescribeListenersInput) (*elb.DescribeListenersOutput, error) {
	if (in.LoadBalancerArn == nil) == (len(in.ListenerArns) == 0) {
		return nil, validation("You must specify either listener ARNs or a load balancer ARN")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeListenersOutput, error) {
		arns, absent := core.Select(r.listeners, in.ListenerArns)
		if len(absent) > 0 {
			return nil, core.Errorf("ListenerNotFound", "Listeners '[%s]' not found", strings.Join(absent, ", "))
		}
		if in.LoadBalancerArn != nil {
			if _, err := r.lb(in.LoadBalancerArn); err != nil {
				return nil, err
			}
			arns = slices.DeleteFunc(arns, func(arn string) bool { return r.listeners[arn].lb != *in.LoadBalancerArn })
		}
		listeners, next, err := page(arns, in.Marker, in.PageSize, func(arn string) types.Listener { return r.listeners[arn].describe() })
		return &elb.DescribeListenersOutput{Listeners: listeners, NextMarker: next}, err
	})
}

func (b *Backend) modifyListener(call *core.Call, in *elb.ModifyListenerInput) (*elb.ModifyListenerOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.ModifyListenerOutput, error) {
		l, err := r.listener(in.ListenerArn)
		if err != nil {
			return nil, err
		}
		c := listenerChange{in.Protocol, in.Port, in.SslPolicy, in.Certificates, in.AlpnPolicy, in.DefaultActions}
		changed, err := c.apply(r, r.lbs[l.lb], *l)
		if err != nil {
			return nil, err
		}
		before := certificateARNs(l.certs)
		*l = *changed
		b.recordCertificateUsers(r, append(before, certificateARNs(l.certs)...))
		return &elb.ModifyListenerOutput{Listeners: []types.Listener{l.describe()}}, nil
	})
}

func (b *Backend) deleteListener(call *core.Call, in *elb.DeleteListenerInput) (*elb.DeleteListenerOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.DeleteListenerOutput, error) {
		l, err := r.listener(in.ListenerArn)
		if err != nil {
			return nil, err
		}
		r.deleteRules(func(ru *rule) bool { return ru.listener == l.arn })
		delete(r.listeners, l.arn)
		r.tags.Delete(l.arn)
		b.recordCertificateUsers(r, certificateARNs(l.certs))
		return &elb.DeleteListenerOutput{}, nil
	})
}
