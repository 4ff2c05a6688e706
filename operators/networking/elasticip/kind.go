// Package elasticip manages Elastic IP addresses for the ElasticIP kind.
package elasticip

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Target resolves references to ElasticIPs (allocationRef) to their allocation ids.
var Target = managed.ReferenceTarget[*v1alpha1.ElasticIP]{
	Kind:    "ElasticIP",
	New:     func() *v1alpha1.ElasticIP { return &v1alpha1.ElasticIP{} },
	NewList: func() client.ObjectList { return &v1alpha1.ElasticIPList{} },
	Value:   func(e *v1alpha1.ElasticIP) string { return e.Status.AllocationID },
}

// Kind returns the ElasticIP kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.ElasticIP, State] {
	return managed.Kind[*v1alpha1.ElasticIP, State]{
		Name:    "ElasticIP",
		New:     func() *v1alpha1.ElasticIP { return &v1alpha1.ElasticIP{} },
		NewList: func() client.ObjectList { return &v1alpha1.ElasticIPList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.ElasticIP, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			addresses := ec2util.Addresses(api)
			return &driver{api: api, defaultTags: s.DefaultTags(), addresses: addresses,
				listing: provider.Client(s, "ec2/eip-listing", func(aws.Config) *managed.Listing[types.Address] { return addresses.Listing() })}
		},
	}
}

// driver manages one provider's Elastic IP addresses.
type driver struct {
	api         addressAPI
	defaultTags map[string]string
	addresses   ec2util.Describer[types.Address]
	listing     *managed.Listing[types.Address]
}
