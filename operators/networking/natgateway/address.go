package natgateway

import (
	"context"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
)

// TagAllocatedFor marks an Elastic IP the operator allocated for a public NAT gateway whose
// spec gives none; its value is the NATGateway's UID. The address is found again by this tag
// (after a crash, or when the gateway is replaced) and released after the gateway is deleted.
const TagAllocatedFor = shared.Group + "/allocated-for"

// allocatedAddress returns the Elastic IP the operator allocated for g, if there is one.
func (d *driver) allocatedAddress(ctx context.Context, g *v1alpha1.NATGateway) (types.Address, bool, error) {
	filter := []types.Filter{{Name: aws.String("tag:" + TagAllocatedFor), Values: []string{string(g.UID)}}}
	addrs, _, err := d.addresses.Describe(ctx, nil, filter, "")
	if err != nil {
		return types.Address{}, false, fmt.Errorf("look up the Elastic IP allocated for NAT gateway %s/%s: %w", g.Namespace, g.Name, err)
	}
	if len(addrs) == 0 {
		return types.Address{}, false, nil
	}
	return addrs[0], true, nil
}

// ensureAddress returns the allocation id of the Elastic IP the operator allocated for g,
// allocating one (tagged with the gateway's tags and TagAllocatedFor) when there is none yet,
// and records it in g's status.
func (d *driver) ensureAddress(ctx context.Context, g *v1alpha1.NATGateway, gatewayTags map[string]string) (string, error) {
	addr, found, err := d.allocatedAddress(ctx, g)
	if err != nil {
		return "", err
	}
	if !found {
		tags := maps.Clone(gatewayTags)
		tags[TagAllocatedFor] = string(g.UID)
		out, err := ec2util.AllocateAddress(ctx, d.api, tags)
		if err != nil {
			return "", fmt.Errorf("for NAT gateway %s/%s: %w", g.Namespace, g.Name, err)
		}
		addr = types.Address{AllocationId: out.AllocationId, PublicIp: out.PublicIp}
	}
	g.Status.AllocationID, g.Status.PublicIP = aws.ToString(addr.AllocationId), aws.ToString(addr.PublicIp)
	return aws.ToString(addr.AllocationId), nil
}

// releaseAfterFailedCreate releases the Elastic IP allocated for a gateway whose create call
// failed, and returns createErr. When the release fails too, the error it returns holds both
// errors as text only: classified as AWS's refusal of the create (or as throttling), it would
// tell the reconciler that nothing was made, and the object could go without the address being
// looked for again; unclassified, it keeps the create-pending marker and is retried.
func (d *driver) releaseAfterFailedCreate(ctx context.Context, allocationID string, createErr error) error {
	if err := ec2util.ReleaseAddress(ctx, d.api, allocationID); err != nil {
		return fmt.Errorf("%v; the Elastic IP allocated for it is kept until it can be released: %v", createErr, err)
	}
	return createErr
}

// releaseAddressOwnership removes the ownership tags and TagAllocatedFor from the Elastic IP
// the operator allocated for g, if there is one, for deletionPolicy Orphan.
func (d *driver) releaseAddressOwnership(ctx context.Context, g *v1alpha1.NATGateway) error {
	addr, found, err := d.allocatedAddress(ctx, g)
	if err != nil || !found {
		return err
	}
	id := aws.ToString(addr.AllocationId)
	if err := ec2util.ReleaseOwnership(ctx, d.api, id); err != nil {
		return err
	}
	return ec2util.RemoveTags(ctx, d.api, id, TagAllocatedFor)
}
