// Package vpc manages Amazon VPCs for the VPC kind.
package vpc

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Target resolves references to VPCs (vpcRef) to their ids.
var Target = managed.ReferenceTarget[*v1alpha1.VPC]{
	Kind:    "VPC",
	New:     func() *v1alpha1.VPC { return &v1alpha1.VPC{} },
	NewList: func() client.ObjectList { return &v1alpha1.VPCList{} },
	Value:   func(v *v1alpha1.VPC) string { return v.Status.VPCID },
}

// Kind returns the VPC kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.VPC, State] {
	return managed.Kind[*v1alpha1.VPC, State]{
		Name:    "VPC",
		New:     func() *v1alpha1.VPC { return &v1alpha1.VPC{} },
		NewList: func() client.ObjectList { return &v1alpha1.VPCList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.VPC, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			vpcs := describer(api)
			return &driver{api: api, defaultTags: s.DefaultTags(), vpcs: vpcs,
				listing: provider.Client(s, "ec2/vpc-listing", func(aws.Config) *managed.Listing[types.Vpc] { return vpcs.Listing() })}
		},
	}
}

// describer reads VPCs.
func describer(api vpcAPI) ec2util.Describer[types.Vpc] {
	return ec2util.Describer[types.Vpc]{
		What: "VPC",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]types.Vpc, string, error) {
			in := &ec2.DescribeVpcsInput{VpcIds: ids, Filters: filters}
			in.MaxResults, in.NextToken = ec2util.Paging(ids, 1000, next)
			out, err := api.DescribeVpcs(ctx, in)
			if err != nil {
				return nil, "", err
			}
			return out.Vpcs, aws.ToString(out.NextToken), nil
		},
		ID: func(v types.Vpc) string { return aws.ToString(v.VpcId) },
	}
}

// driver manages one provider's VPCs.
type driver struct {
	api         vpcAPI
	defaultTags map[string]string
	vpcs        ec2util.Describer[types.Vpc]
	listing     *managed.Listing[types.Vpc]
}

// ResolveRef fills *id with the id of the VPC that ref (the spec field named field) names, when
// ref is set; it waits, with a condition naming the field, while that VPC is not Ready.
func ResolveRef(ctx context.Context, c client.Reader, o shared.Managed, field string, ref *shared.Reference, id *string) error {
	return Target.ResolveInto(ctx, c, o, field, ref, id)
}

// Refs returns the reference to a VPC that ref makes, for the watches of Kind.References.
func Refs(ref *shared.Reference) []managed.Ref { return Target.Refs(ref) }
