package routetable

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
)

// subnetAssociations returns the table's explicit subnet associations, by subnet id; the main
// association and associations being removed do not count.
func subnetAssociations(t types.RouteTable) map[string]string {
	out := map[string]string{}
	for _, a := range t.Associations {
		if aws.ToBool(a.Main) || a.SubnetId == nil {
			continue
		}
		if a.AssociationState != nil && (a.AssociationState.State == types.RouteTableAssociationStateCodeDisassociating ||
			a.AssociationState.State == types.RouteTableAssociationStateCodeDisassociated) {
			continue
		}
		out[aws.ToString(a.SubnetId)] = aws.ToString(a.RouteTableAssociationId)
	}
	return out
}

// associationStatus returns the associations for the status, sorted by subnet id.
func associationStatus(assocs map[string]string) []v1alpha1.RouteTableAssociation {
	var out []v1alpha1.RouteTableAssociation
	for _, s := range slices.Sorted(maps.Keys(assocs)) {
		out = append(out, v1alpha1.RouteTableAssociation{SubnetID: s, AssociationID: assocs[s]})
	}
	return out
}

// associationChanges compares the desired subnets with the associated ones: the subnets to
// associate and the association ids to remove, each sorted.
func associationChanges(want []string, have map[string]string) (associate, disassociate []string) {
	wanted := map[string]bool{}
	for _, s := range want {
		wanted[s] = true
		if _, ok := have[s]; !ok && !slices.Contains(associate, s) {
			associate = append(associate, s)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(have)) {
		if !wanted[s] {
			disassociate = append(disassociate, have[s])
		}
	}
	slices.Sort(associate)
	return associate, disassociate
}
