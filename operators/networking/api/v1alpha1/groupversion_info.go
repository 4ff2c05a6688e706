// Package v1alpha1 holds the networking family's kinds: VPC, Subnet, InternetGateway,
// NATGateway, ElasticIP, SecurityGroup, RouteTable, ALB and NLB (each load balancer with its
// listeners and target groups).
//
// +kubebuilder:object:generate=true
// +groupName=aws-infra-operator.runner.codes
// +versionName=v1alpha1
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

var (
	// SchemeBuilder registers the networking family's kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(shared.GroupVersion,
			&VPC{}, &VPCList{},
			&Subnet{}, &SubnetList{},
			&InternetGateway{}, &InternetGatewayList{},
			&ElasticIP{}, &ElasticIPList{},
			&NATGateway{}, &NATGatewayList{},
			&SecurityGroup{}, &SecurityGroupList{},
			&RouteTable{}, &RouteTableList{},
			&ALB{}, &ALBList{},
			&NLB{}, &NLBList{},
			&VPCEndpoint{}, &VPCEndpointList{},
			&Route53HostedZone{}, &Route53HostedZoneList{},
			&Route53RecordSet{}, &Route53RecordSetList{},
			&VPCPeeringConnection{}, &VPCPeeringConnectionList{},
		)
		return nil
	})
	// AddToScheme adds the networking family's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
