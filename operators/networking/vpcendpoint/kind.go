// Package vpcendpoint manages VPC endpoints for the VPCEndpoint kind: gateway endpoints (S3,
// DynamoDB) with their route tables, and interface endpoints with their subnets, security
// groups and private DNS, each with its policy and tags. An endpoint is created with an
// idempotency token from the object's UID and found again by its ownership tags; it is Ready
// once AWS reports it available.
package vpcendpoint

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the VPCEndpoint kind to the engine.
func Kind() managed.Kind[*v1alpha1.VPCEndpoint, State] {
	return managed.Kind[*v1alpha1.VPCEndpoint, State]{
		// An interface endpoint is pending for a minute or so in AWS (1s in the emulator).
		ReadyIn: time.Second,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.VPCEndpoint) managed.Driver[*v1alpha1.VPCEndpoint, State] {
			api := ec2util.Client(s)
			return &driver{api: api, endpoints: endpoints(api).For(s)}
		},
		References: []managed.Ref[*v1alpha1.VPCEndpoint]{
			managed.One(targets.VPC, "spec.vpcRef", func(e *v1alpha1.VPCEndpoint) (*shared.Reference, *string) { return e.Spec.VPCRef, &e.Spec.VPCID }),
			// A gateway endpoint writes a route into each of its route tables.
			managed.List(targets.RouteTable, "spec.routeTableRefs", "", func(e *v1alpha1.VPCEndpoint) ([]shared.Reference, *shared.Selector, *[]string) {
				return e.Spec.RouteTableRefs, nil, &e.Spec.RouteTableIDs
			}).Writing(),
			managed.List(targets.Subnet, "spec.subnetRefs", "", func(e *v1alpha1.VPCEndpoint) ([]shared.Reference, *shared.Selector, *[]string) {
				return e.Spec.SubnetRefs, nil, &e.Spec.SubnetIDs
			}),
			managed.List(targets.SecurityGroup, "spec.securityGroupRefs", "", func(e *v1alpha1.VPCEndpoint) ([]shared.Reference, *shared.Selector, *[]string) {
				return e.Spec.SecurityGroupRefs, nil, &e.Spec.SecurityGroupIDs
			}),
		},
	}
}

// endpoints reads VPC endpoints, 1000 a page. Among several endpoints with the same owner (a
// deleted one stays visible for a while), Find picks a live one, else the newest.
func endpoints(api *ec2.Client) ec2util.Describer[types.VpcEndpoint] {
	return ec2util.VPCEndpoints(api).Replaceable(gone, func(e types.VpcEndpoint) time.Time { return aws.ToTime(e.CreationTimestamp) })
}

// gone reports whether an endpoint is deleting or deleted.
func gone(e types.VpcEndpoint) bool {
	return is(e, types.StateDeleting) || is(e, types.StateDeleted)
}

// is reports whether the endpoint is in state s: EC2 writes endpoint states in lower case
// (available), the SDK's enum capitalised (Available).
func is(e types.VpcEndpoint, s types.State) bool {
	return strings.EqualFold(string(e.State), string(s))
}

// driver manages one provider's VPC endpoints.
type driver struct {
	api       *ec2.Client
	endpoints ec2util.Source[types.VpcEndpoint]
}
