// Package loadbalancer manages Application and Network Load Balancers, their listeners (with
// their rules) and their target groups (with their targets), for the ALB and NLB kinds. Both
// kinds share one driver; a view tells it what differs between them.
package loadbalancer

import (
	"cmp"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/lambdagrant"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// view is what the driver needs of an ALB or NLB: its shared spec and status, its security
// groups (nil for an NLB), its AWS type and its AWS name (the spec's, or else the object's).
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
		typ: types.LoadBalancerTypeEnumApplication, name: cmp.Or(b.Spec.Name, b.Name)}
}

// nlbView returns the view of an NLB.
func nlbView(b *v1alpha1.NLB) view {
	return view{spec: &b.Spec.LoadBalancerSpec, status: &b.Status.LoadBalancerStatus,
		typ: types.LoadBalancerTypeEnumNetwork, name: cmp.Or(b.Spec.Name, b.Name)}
}

// ALBKind declares the ALB kind to the engine: its subnets, its listeners' certificates, then
// its security groups, are resolved from their references.
func ALBKind() managed.Kind[*v1alpha1.ALB, State] {
	k := kind(albView)
	k.References = append(k.References, managed.List(targets.SecurityGroup, "spec.securityGroupRefs", "",
		func(b *v1alpha1.ALB) ([]shared.Reference, *shared.Selector, *[]string) {
			return b.Spec.SecurityGroupRefs, nil, &b.Spec.SecurityGroupIDs
		}))
	return k
}

// NLBKind declares the NLB kind to the engine: its subnets and its listeners' certificates
// are resolved from their references.
func NLBKind() managed.Kind[*v1alpha1.NLB, State] {
	return kind(nlbView)
}

// kind declares a load balancer kind whose objects v views, with the references every load
// balancer has: its subnets (subnetRefs, then subnetSelector), its listeners' certificates
// (certificateRef, an ACMCertificate of the security family) and its targets' instances and
// functions (instanceRef and lambdaRef, EC2Instances and LambdaFunctions of the compute
// family; lambdaRef writes into the function's resource policy).
func kind[O shared.Managed](v func(O) view) managed.Kind[O, State] {
	return managed.Kind[O, State]{
		// A load balancer is provisioning for minutes in AWS (2s in the emulator).
		ReadyIn: time.Second,
		Connect: func(s *provider.Session, _ client.Reader, _ O) managed.Driver[O, State] {
			api := provider.Client(s, "elbv2", func(c aws.Config) *elb.Client { return elb.NewFromConfig(c) })
			fns := provider.Client(s, "lambda", func(c aws.Config) *lambda.Client { return lambda.NewFromConfig(c) })
			return &driver[O]{api: api, lambda: fns, view: v, balancers: balancers(s, api)}
		},
		References: []managed.Ref[O]{
			managed.List(targets.Subnet, "spec.subnetRefs", "spec.subnetSelector", func(o O) ([]shared.Reference, *shared.Selector, *[]string) {
				spec := v(o).spec
				return spec.SubnetRefs, spec.SubnetSelector, &spec.SubnetIDs
			}),
			managed.Each(targets.ACMCertificate, "spec.listeners[%d].certificateRef", func(o O) []managed.Slot {
				listeners := v(o).spec.Listeners
				slots := make([]managed.Slot, len(listeners))
				for i := range listeners {
					slots[i] = managed.Slot{Ref: listeners[i].CertificateRef, ID: &listeners[i].CertificateARN}
				}
				return slots
			}),
			targetRefs(targets.EC2Instance, "instanceRef", v, func(t *v1alpha1.Target) (*shared.Reference, *string) { return t.InstanceRef, &t.InstanceID }),
			// The load balancer adds a statement to the function's resource policy.
			targetRefs(targets.LambdaFunction, "lambdaRef", v, func(t *v1alpha1.Target) (*shared.Reference, *string) {
				return t.LambdaRef, &t.LambdaFunctionARN
			}).Writing(),
		},
	}
}

// targetRefs declares the references of one field (name) of the target groups' targets, as
// pick returns it with the field its identifier goes to.
func targetRefs[O shared.Managed](t targets.Target, name string, v func(O) view, pick func(*v1alpha1.Target) (*shared.Reference, *string)) managed.Ref[O] {
	return managed.Ref[O]{Target: t, Sites: func(o O) []managed.Site {
		var sites []managed.Site
		groups := v(o).spec.TargetGroups
		for i := range groups {
			for j := range groups[i].Targets {
				ref, id := pick(&groups[i].Targets[j])
				if ref == nil {
					continue
				}
				sites = append(sites, managed.Site{Field: fmt.Sprintf("spec.targetGroups[%d].targets[%d].%s", i, j, name), Name: ref.Name,
					Set: func(ids []string) { *id = ids[0] }})
			}
		}
		return sites
	}}
}

// driver manages one provider's load balancers of one kind.
type driver[O shared.Managed] struct {
	api elbAPI
	// lambda lets Lambda target groups invoke their functions.
	lambda lambdagrant.API
	view   func(O) view
	// balancers serves periodic syncs from one listing of the provider's load balancers.
	balancers *managed.Listing[types.LoadBalancer]
}
