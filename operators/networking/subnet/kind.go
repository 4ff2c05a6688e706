// Package subnet manages VPC subnets for the Subnet kind.
package subnet

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

// Target resolves references to Subnets (subnetRef, subnetSelector) to their ids.
var Target = managed.ReferenceTarget[*v1alpha1.Subnet]{
	Kind:    "Subnet",
	New:     func() *v1alpha1.Subnet { return &v1alpha1.Subnet{} },
	NewList: func() client.ObjectList { return &v1alpha1.SubnetList{} },
	Value:   func(s *v1alpha1.Subnet) string { return s.Status.SubnetID },
}

// Kind returns the Subnet kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.Subnet, State] {
	return managed.Kind[*v1alpha1.Subnet, State]{
		Name:    "Subnet",
		New:     func() *v1alpha1.Subnet { return &v1alpha1.Subnet{} },
		NewList: func() client.ObjectList { return &v1alpha1.SubnetList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.Subnet, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			subnets := describer(api)
			return &driver{api: api, region: s.Config.Region, defaultTags: s.DefaultTags(), subnets: subnets,
				listing: provider.Client(s, "ec2/subnet-listing", func(aws.Config) *managed.Listing[types.Subnet] { return subnets.Listing() })}
		},
		ResolveReferences: func(ctx context.Context, c client.Reader, s *v1alpha1.Subnet) error {
			return vpc.ResolveRef(ctx, c, s, "spec.vpcRef", s.Spec.VPCRef, &s.Spec.VPCID)
		},
		References: func(s *v1alpha1.Subnet) []managed.Ref { return vpc.Refs(s.Spec.VPCRef) },
		Referenced: []client.Object{&v1alpha1.VPC{}},
	}
}

// describer reads subnets.
func describer(api subnetAPI) ec2util.Describer[types.Subnet] {
	return ec2util.Describer[types.Subnet]{
		What: "subnet",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]types.Subnet, string, error) {
			in := &ec2.DescribeSubnetsInput{SubnetIds: ids, Filters: filters}
			in.MaxResults, in.NextToken = ec2util.Paging(ids, 1000, next)
			out, err := api.DescribeSubnets(ctx, in)
			if err != nil {
				return nil, "", err
			}
			return out.Subnets, aws.ToString(out.NextToken), nil
		},
		ID: func(s types.Subnet) string { return aws.ToString(s.SubnetId) },
	}
}

// driver manages one provider's subnets.
type driver struct {
	api subnetAPI
	// region is the provider's region, which the subnet's availability zone must be in.
	region      string
	defaultTags map[string]string
	subnets     ec2util.Describer[types.Subnet]
	listing     *managed.Listing[types.Subnet]
}
