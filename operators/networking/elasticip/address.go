package elasticip

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about an Elastic IP address.
type State struct {
	// Address is DescribeAddresses' answer.
	Address types.Address
}

// Observe reads the address (from the provider's listing at periodic syncs, directly
// otherwise), fills the status and compares its tags with the spec. An address without a
// recorded allocation id is looked up by its ownership tag.
func (d *driver) Observe(ctx context.Context, e *v1alpha1.ElasticIP) (managed.Observation[State], error) {
	addr, found, err := d.addresses.Find(ctx, d.listing, e)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	e.Status.AllocationID, e.Status.PublicIP = aws.ToString(addr.AllocationId), aws.ToString(addr.PublicIp)
	set, remove := managed.TagChanges(managed.DesiredTags(e, d.defaultTags), ec2util.Tags(addr.Tags))
	var diff managed.Diff
	diff.Check("tags", len(set)+len(remove) > 0)
	return managed.Observation[State]{Exists: true, Ready: true, State: &State{Address: addr}, UpToDate: len(diff) == 0, Diff: diff.String(),
		Tags: ec2util.Tags(addr.Tags)}, nil
}

// Create allocates the address with its ownership tags and records its allocation id.
// AllocateAddress has no idempotency token: a crash before the id is recorded is covered by
// the lookup by ownership tag.
func (d *driver) Create(ctx context.Context, e *v1alpha1.ElasticIP) error {
	out, err := ec2util.AllocateAddress(ctx, d.api, managed.DesiredTags(e, d.defaultTags))
	if err != nil {
		return err
	}
	managed.SetExternalName(e, aws.ToString(out.AllocationId))
	e.Status.AllocationID, e.Status.PublicIP = aws.ToString(out.AllocationId), aws.ToString(out.PublicIp)
	return nil
}

// Update sets the tags.
func (d *driver) Update(ctx context.Context, e *v1alpha1.ElasticIP, obs managed.Observation[State]) error {
	a := obs.State.Address
	return ec2util.UpdateTags(ctx, d.api, aws.ToString(a.AllocationId), managed.DesiredTags(e, d.defaultTags), ec2util.Tags(a.Tags))
}

// Delete releases the address; while a NAT gateway or an interface uses it, the reconciler
// reports the dependency violation and retries with backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.ElasticIP, obs managed.Observation[State]) error {
	return ec2util.ReleaseAddress(ctx, d.api, aws.ToString(obs.State.Address.AllocationId))
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.ElasticIP, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Address.AllocationId))
}
