// Package loadbalancer manages Application and Network Load Balancers, their listeners and
// their target groups, for the ALB and NLB kinds. Both kinds share one driver; a view tells it
// what differs between them.
package loadbalancer

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/securitygroup"
	"github.com/runner-codes/infra-operator/operators/networking/subnet"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// view is what the driver needs of an ALB or NLB: its shared spec and status, its security
// groups (nil for an NLB) and its AWS type.
type view struct {
	spec   *v1alpha1.LoadBalancerSpec
	status *v1alpha1.LoadBalancerStatus
	groups *[]string
	typ    types.LoadBalancerTypeEnum
	name   string
}

// albView returns the view of an ALB.
func albView(b *v1alpha1.ALB) view {
	return view{spec: &b.Spec.LoadBalancerSpec, status: &b.Status.LoadBalancerStatus, groups: &b.Spec.SecurityGroupIDs,
		typ: types.LoadBalancerTypeEnumApplication, name: nameOf(b.Spec.Name, b.Name)}
}

// nlbView returns the view of an NLB.
func nlbView(b *v1alpha1.NLB) view {
	return view{spec: &b.Spec.LoadBalancerSpec, status: &b.Status.LoadBalancerStatus,
		typ: types.LoadBalancerTypeEnumNetwork, name: nameOf(b.Spec.Name, b.Name)}
}

// nameOf returns the load balancer's AWS name: the spec's, or else the object's.
func nameOf(spec, object string) string {
	if spec != "" {
		return spec
	}
	return object
}

// ALBKind returns the ALB kind for the generic reconciler.
func ALBKind() managed.Kind[*v1alpha1.ALB, State] {
	return managed.Kind[*v1alpha1.ALB, State]{
		Name:    "ALB",
		New:     func() *v1alpha1.ALB { return &v1alpha1.ALB{} },
		NewList: func() client.ObjectList { return &v1alpha1.ALBList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.ALB, State] {
			return &driver[*v1alpha1.ALB]{api: connect(s), defaultTags: s.DefaultTags(), view: albView}
		},
		ResolveReferences: func(ctx context.Context, c client.Reader, b *v1alpha1.ALB) error {
			if err := resolveSubnets(ctx, c, b, &b.Spec.LoadBalancerSpec); err != nil {
				return err
			}
			return securitygroup.Target.ResolveAll(ctx, c, b, "spec.securityGroupRefs", b.Spec.SecurityGroupRefs, &b.Spec.SecurityGroupIDs)
		},
		References: func(b *v1alpha1.ALB) []managed.Ref {
			return append(subnetRefs(&b.Spec.LoadBalancerSpec), securitygroup.Target.ListRefs(b.Spec.SecurityGroupRefs, nil)...)
		},
		Referenced: []client.Object{&v1alpha1.Subnet{}, &v1alpha1.SecurityGroup{}},
	}
}

// NLBKind returns the NLB kind for the generic reconciler.
func NLBKind() managed.Kind[*v1alpha1.NLB, State] {
	return managed.Kind[*v1alpha1.NLB, State]{
		Name:    "NLB",
		New:     func() *v1alpha1.NLB { return &v1alpha1.NLB{} },
		NewList: func() client.ObjectList { return &v1alpha1.NLBList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.NLB, State] {
			return &driver[*v1alpha1.NLB]{api: connect(s), defaultTags: s.DefaultTags(), view: nlbView}
		},
		ResolveReferences: func(ctx context.Context, c client.Reader, b *v1alpha1.NLB) error {
			return resolveSubnets(ctx, c, b, &b.Spec.LoadBalancerSpec)
		},
		References: func(b *v1alpha1.NLB) []managed.Ref { return subnetRefs(&b.Spec.LoadBalancerSpec) },
		Referenced: []client.Object{&v1alpha1.Subnet{}},
	}
}

// connect returns the session's ELBv2 client.
func connect(s *provider.Session) elbAPI {
	return provider.Client(s, "elbv2", func(c aws.Config) *elb.Client { return elb.NewFromConfig(c) })
}

// resolveSubnets fills, in memory, the subnet ids from subnetRefs or subnetSelector, waiting
// with a condition that names the field while a subnet is not Ready.
func resolveSubnets(ctx context.Context, c client.Reader, o shared.Managed, spec *v1alpha1.LoadBalancerSpec) error {
	if err := subnet.Target.ResolveAll(ctx, c, o, "spec.subnetRefs", spec.SubnetRefs, &spec.SubnetIDs); err != nil {
		return err
	}
	return subnet.Target.ResolveSelectorInto(ctx, c, o, "spec.subnetSelector", spec.SubnetSelector, &spec.SubnetIDs)
}

// subnetRefs returns the subnets spec refers to, for the watches.
func subnetRefs(spec *v1alpha1.LoadBalancerSpec) []managed.Ref {
	return subnet.Target.ListRefs(spec.SubnetRefs, spec.SubnetSelector)
}

// driver manages one provider's load balancers of one kind.
type driver[O shared.Managed] struct {
	api         elbAPI
	defaultTags map[string]string
	view        func(O) view
}
