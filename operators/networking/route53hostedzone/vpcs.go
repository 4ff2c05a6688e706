package route53hostedzone

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// vpcClient returns the session's EC2 client, which reads the tags of VPCs named by id.
func vpcClient(s *provider.Session) *ec2.Client { return ec2util.Client(s) }

// vpcTags reads the tags of VPCs, for the foreign-write rule.
type vpcTags struct{ api *ec2.Client }

// checkForeign refuses, before anything is written, a VPC named by id (not by reference) that
// no object of the namespace made (managed.CheckForeignWrite, operator flag
// --foreign-write-namespaces): associating it writes the zone's names into its DNS. ids are the
// VPCs about to be associated; references name the namespace's own.
func (v vpcTags) checkForeign(ctx context.Context, z *v1alpha1.Route53HostedZone, ids []string) error {
	if len(z.Spec.VPCRefs) > 0 || len(ids) == 0 {
		return nil
	}
	out, err := v.api.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: ids})
	if err != nil {
		return managed.Wrap(err, "read the tags of VPCs %v", ids)
	}
	for _, vpc := range out.Vpcs {
		if err := managed.CheckForeignWrite(ctx, z, "VPC", aws.ToString(vpc.VpcId), ec2util.Tags(vpc.Tags)); err != nil {
			return err
		}
	}
	return nil
}

// vpc returns the VPC id in the driver's region, as Route 53 names it.
func (d *driver) vpc(id string) *types.VPC {
	return &types.VPC{VPCId: aws.String(id), VPCRegion: types.VPCRegion(d.region)}
}

// vpcIDs returns the ids of the zone's VPCs in the driver's region, sorted.
func (d *driver) vpcIDs(vpcs []types.VPC) []string {
	var ids []string
	for _, v := range vpcs {
		if string(v.VPCRegion) == d.region {
			ids = append(ids, aws.ToString(v.VPCId))
		}
	}
	slices.Sort(ids)
	return ids
}

// planVPCs adds to p the associations and disassociations that make a private zone's VPCs
// the spec's: associations first, so that the zone never loses its last VPC.
func (d *driver) planVPCs(p *managed.Plan, z *v1alpha1.Route53HostedZone, id string, have []string) {
	want := slices.Compact(slices.Sorted(slices.Values(z.Spec.VPCIDs)))
	if managed.SameSet(have, want) {
		return
	}
	add, remove := missing(want, have), missing(have, want)
	p.AddValue("vpcs", have, want, func(ctx context.Context) error {
		if err := d.vpcs.checkForeign(ctx, z, add); err != nil {
			return err
		}
		for _, v := range add {
			if _, err := d.api.AssociateVPCWithHostedZone(ctx, &route53.AssociateVPCWithHostedZoneInput{HostedZoneId: aws.String(id), VPC: d.vpc(v)}); err != nil {
				return managed.Wrap(err, "associate VPC %s with hosted zone %s", v, id)
			}
		}
		for _, v := range remove {
			if _, err := d.api.DisassociateVPCFromHostedZone(ctx, &route53.DisassociateVPCFromHostedZoneInput{HostedZoneId: aws.String(id), VPC: d.vpc(v)}); err != nil {
				return managed.Wrap(err, "disassociate VPC %s from hosted zone %s", v, id)
			}
		}
		return nil
	})
}

// missing returns the ids of a that b lacks.
func missing(a, b []string) []string {
	var out []string
	for _, id := range a {
		if !slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	return out
}
