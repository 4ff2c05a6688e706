package elasticip

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about an Elastic IP address.
type State struct {
	// Address is DescribeAddresses' answer.
	Address types.Address
}

// Observe reads the address (from the provider's listing at periodic syncs, directly
// otherwise), fills the status and plans a tag change when the tags differ. An address
// without a recorded allocation id is looked up by its ownership tag.
func (d *driver) Observe(ctx context.Context, e *v1alpha1.ElasticIP, req managed.Request) (managed.Observation[State], error) {
	addr, found, err := d.addresses.Find(ctx, e)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id, tags := aws.ToString(addr.AllocationId), ec2util.Tags(addr.Tags)
	e.Status.AllocationID, e.Status.PublicIP = id, aws.ToString(addr.PublicIp)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Address: addr}, Tags: tags}
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// Create allocates the address with its ownership tags and records its allocation id.
// AllocateAddress has no idempotency token: a crash before the id is recorded is covered by
// the lookup by ownership tag.
func (d *driver) Create(ctx context.Context, e *v1alpha1.ElasticIP, req managed.Request) error {
	out, err := ec2util.AllocateAddress(ctx, d.api, req.Tags)
	if err != nil {
		return err
	}
	managed.SetExternalName(e, aws.ToString(out.AllocationId))
	e.Status.AllocationID, e.Status.PublicIP = aws.ToString(out.AllocationId), aws.ToString(out.PublicIp)
	return nil
}

// Delete releases the address; while a NAT gateway or an interface uses it, the engine
// reports the dependency violation and retries with backoff.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.ElasticIP, obs managed.Observation[State]) error {
	return ec2util.ReleaseAddress(ctx, d.api, aws.ToString(obs.State.Address.AllocationId))
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.ElasticIP, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Address.AllocationId))
}
