// Package networking is the networking family of infra-operator: VPC, Subnet, InternetGateway, NATGateway, SecurityGroup, RouteTable, ElasticIP, ALB and NLB.
package networking

import "github.com/runner-codes/infra-operator/shared/operator"

// Name is the family's name.
const Name = "networking"

// Family returns the networking family with every kind it implements so far. Kinds are added to
// AddToScheme and Setup as their drivers land; until then the family runs the AWSProvider
// controller and serves its health and metrics endpoints.
func Family() operator.Family {
	return operator.Family{Name: Name}
}
