package ec2

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// The lookups below let other emulated services (ELBv2, EKS, Lambda) check the EC2 resources a
// request names, in the same account and region, without reaching into EC2's state.

// scoped runs f on the EC2 state of scope, holding the backend's lock; the state is made on
// first use, since every account's region starts with its default VPC.
func (b *Backend) scoped(scope core.Scope, f func(r *region)) {
	core.With(b.state, scope, func(r *region) any { f(r); return nil })
}

// VpcExists reports whether the VPC exists.
func (b *Backend) VpcExists(scope core.Scope, id string) (ok bool) {
	b.scoped(scope, func(r *region) { _, ok = r.vpcs[id] })
	return ok
}

// Subnet returns the VPC and the availability zone of a subnet.
func (b *Backend) Subnet(scope core.Scope, id string) (vpc, zone string, ok bool) {
	b.scoped(scope, func(r *region) {
		if s := r.subnets[id]; s != nil {
			vpc, zone, ok = s.vpc, s.zone.name, true
		}
	})
	return vpc, zone, ok
}

// SecurityGroup returns the VPC of a security group.
func (b *Backend) SecurityGroup(scope core.Scope, id string) (vpc string, ok bool) {
	b.scoped(scope, func(r *region) {
		if g := r.groups[id]; g != nil {
			vpc, ok = g.vpc, true
		}
	})
	return vpc, ok
}

// DefaultSecurityGroup returns the id of a VPC's default security group.
func (b *Backend) DefaultSecurityGroup(scope core.Scope, vpc string) (id string, ok bool) {
	b.scoped(scope, func(r *region) {
		for _, g := range r.groups {
			if g.vpc == vpc && g.isDefault {
				id, ok = g.id, true
			}
		}
	})
	return id, ok
}

// DefaultSubnets returns the region's default VPC and its default subnets with their zones; ok is
// false once the default VPC has been deleted.
func (b *Backend) DefaultSubnets(scope core.Scope) (vpc string, zones map[string]string, ok bool) {
	b.scoped(scope, func(r *region) {
		v := r.defaultVpc()
		if v == nil {
			return
		}
		vpc, zones, ok = v.id, map[string]string{}, true
		for _, s := range r.subnets {
			if s.vpc == v.id && s.defaultForAz {
				zones[s.id] = s.zone.name
			}
		}
	})
	return vpc, zones, ok
}
