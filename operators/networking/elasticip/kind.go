// Package elasticip manages Elastic IP addresses for the ElasticIP kind.
package elasticip

import (
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ElasticIP kind to the engine.
func Kind() managed.Kind[*v1alpha1.ElasticIP, State] {
	return managed.Kind[*v1alpha1.ElasticIP, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.ElasticIP) managed.Driver[*v1alpha1.ElasticIP, State] {
			api := ec2util.Client(s)
			return &driver{api: api, addresses: ec2util.Addresses(api).For(s)}
		},
	}
}

// driver manages one provider's Elastic IP addresses.
type driver struct {
	api       addressAPI
	addresses ec2util.Source[types.Address]
}
