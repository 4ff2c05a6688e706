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
	"github.com/runner-codes/infra-operator/operators/networking/vpc"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Target resolves references to InternetGateways (internetGatewayRef) to their ids.
var Target = managed.ReferenceTarget[*v1alpha1.InternetGateway]{
	Kind:    "InternetGateway",
	New:     func() *v1alpha1.InternetGateway { return &v1alpha1.InternetGateway{} },
	NewList: func() client.ObjectList { return &v1alpha1.InternetGatewayList{} },
	Value:   func(g *v1alpha1.InternetGateway) string { return g.Status.InternetGatewayID },
}

// Kind returns the InternetGateway kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.InternetGateway, State] {
	return managed.Kind[*v1alpha1.InternetGateway, State]{
		Name:    "InternetGateway",
		New:     func() *v1alpha1.InternetGateway { return &v1alpha1.InternetGateway{} },
		NewList: func() client.ObjectList { return &v1alpha1.InternetGatewayList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.InternetGateway, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			gateways := describer(api)
			return &driver{api: api, defaultTags: s.DefaultTags(), gateways: gateways,
				listing: provider.Client(s, "ec2/igw-listing", func(aws.Config) *managed.Listing[types.InternetGateway] { return gateways.Listing() })}
		},
		ResolveReferences: func(ctx context.Context, c client.Reader, g *v1alpha1.InternetGateway) error {
			return vpc.ResolveRef(ctx, c, g, "spec.vpcRef", g.Spec.VPCRef, &g.Spec.VPCID)
		},
		References: func(g *v1alpha1.InternetGateway) []managed.Ref { return vpc.Refs(g.Spec.VPCRef) },
		Referenced: []client.Object{&v1alpha1.VPC{}},
	}
}

// describer reads internet gateways.
func describer(api gatewayAPI) ec2util.Describer[types.InternetGateway] {
	return ec2util.Describer[types.InternetGateway]{
		What: "internet gateway",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]types.InternetGateway, string, error) {
			in := &ec2.DescribeInternetGatewaysInput{InternetGatewayIds: ids, Filters: filters}
			in.MaxResults, in.NextToken = ec2util.Paging(ids, 1000, next)
			out, err := api.DescribeInternetGateways(ctx, in)
			if err != nil {
				return nil, "", err
			}
			return out.InternetGateways, aws.ToString(out.NextToken), nil
		},
		ID: func(g types.InternetGateway) string { return aws.ToString(g.InternetGatewayId) },
	}
}

// driver manages one provider's internet gateways.
type driver struct {
	api         gatewayAPI
	defaultTags map[string]string
	gateways    ec2util.Describer[types.InternetGateway]
	listing     *managed.Listing[types.InternetGateway]
}
