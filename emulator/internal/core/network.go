package core

// Subnets is what a service that places resources in subnets needs of the emulated EC2: the VPC
// of a subnet or security group of an account and region. The EC2 backend implements it.
type Subnets interface {
	// Subnet returns the VPC and the availability zone of a subnet, or ok false when the subnet
	// does not exist.
	Subnet(scope Scope, id string) (vpc, zone string, ok bool)
	// SecurityGroup returns the VPC of a security group, or ok false when the group does not
	// exist.
	SecurityGroup(scope Scope, id string) (vpc string, ok bool)
}

// Network is what a service that places resources in a VPC, by default in the default one,
// needs of the emulated EC2: its Subnets and the default VPC's. The EC2 backend implements it.
type Network interface {
	Subnets
	// DefaultSubnets returns the default VPC of an account's region and its default subnets
	// (subnet id -> zone), or ok false when the region has no default VPC (it was deleted).
	DefaultSubnets(scope Scope) (vpc string, zones map[string]string, ok bool)
}
