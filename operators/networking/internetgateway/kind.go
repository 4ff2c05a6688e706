// Package internetgateway manages internet gateways for the InternetGateway kind: created,
// attached to the spec's VPC, detached before deletion.
package internetgateway

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the InternetGateway kind to the engine.
func Kind() managed.Kind[*v1alpha1.InternetGateway, State] {
	return managed.Kind[*v1alpha1.InternetGateway, State]{
		Name:    "InternetGateway",
		New:     func() *v1alpha1.InternetGateway { return &v1alpha1.InternetGateway{} },
		NewList: func() client.ObjectList { return &v1alpha1.InternetGatewayList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.InternetGateway, State] {
			api := ec2util.Client(s)
			return &driver{api: api, gateways: ec2util.Describer[types.InternetGateway]{
				What: "internet gateway",
				Describe: ec2util.Pages(1000, api.DescribeInternetGateways, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeInternetGatewaysInput {
					return &ec2.DescribeInternetGatewaysInput{InternetGatewayIds: ids, Filters: f, MaxResults: limit, NextToken: next}
				}, func(out *ec2.DescribeInternetGatewaysOutput) ([]types.InternetGateway, *string) {
					return out.InternetGateways, out.NextToken
				}),
				ID: func(g types.InternetGateway) string { return aws.ToString(g.InternetGatewayId) },
			}.For(s)}
		},
		References: []managed.Ref[*v1alpha1.InternetGateway]{
			managed.One(targets.VPC, "spec.vpcRef", func(g *v1alpha1.InternetGateway) (*shared.Reference, *string) { return g.Spec.VPCRef, &g.Spec.VPCID }),
		},
	}
}

// driver manages one provider's internet gateways.
type driver struct {
	api      gatewayAPI
	gateways ec2util.Source[types.InternetGateway]
}

// gatewayAPI is the part of the EC2 API the driver uses.
type gatewayAPI interface {
	ec2util.TagAPI
	CreateInternetGateway(ctx context.Context, in *ec2.CreateInternetGatewayInput, opts ...func(*ec2.Options)) (*ec2.CreateInternetGatewayOutput, error)
	AttachInternetGateway(ctx context.Context, in *ec2.AttachInternetGatewayInput, opts ...func(*ec2.Options)) (*ec2.AttachInternetGatewayOutput, error)
	DetachInternetGateway(ctx context.Context, in *ec2.DetachInternetGatewayInput, opts ...func(*ec2.Options)) (*ec2.DetachInternetGatewayOutput, error)
	DeleteInternetGateway(ctx context.Context, in *ec2.DeleteInternetGatewayInput, opts ...func(*ec2.Options)) (*ec2.DeleteInternetGatewayOutput, error)
}
