package ec2

import (
	"net/netip"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// stateChanges runs change on each instance of list, given its state before the call, and
// returns what StartInstances, StopInstances and TerminateInstances report of them: each one's
// state before the call and at the end of it.
func stateChanges(list []*instance, now time.Time, change func(i *instance, previous types.InstanceStateName)) []types.InstanceStateChange {
	out := make([]types.InstanceStateChange, 0, len(list))
	for _, i := range list {
		previous := i.state(now)
		change(i, previous)
		out = append(out, types.InstanceStateChange{InstanceId: aws.String(i.id), PreviousState: stateOf(previous), CurrentState: stateOf(i.state(now))})
	}
	return out
}

// incorrectState is EC2's refusal of an action the instance's state does not allow.
func incorrectState(id, action string) *core.APIError {
	return core.Errorf("IncorrectInstanceState", "The instance '%s' is not in a state from which it can be %s.", id, action)
}

// startInstances starts stopped instances: pending, then running on the clock, each with a new
// public address when it had one. Instances already pending or running are left as they are, as
// on AWS; any other state refuses the whole request.
func (b *Backend) startInstances(call *core.Call, in *ec2.StartInstancesInput) (*ec2.StartInstancesOutput, error) {
	return withInstances(b, call, in.InstanceIds, func(r *region, list []*instance) (*ec2.StartInstancesOutput, error) {
		public := 0
		for _, i := range list {
			switch i.state(call.Now) {
			case types.InstanceStateNameStopped:
				if i.wantsPublicIP {
					public++
				}
			case types.InstanceStateNamePending, types.InstanceStateNameRunning:
			default:
				return nil, incorrectState(i.id, "started")
			}
		}
		addrs, err := r.publicAddresses(public)
		if err != nil {
			return nil, err
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		return &ec2.StartInstancesOutput{StartingInstances: stateChanges(list, call.Now, func(i *instance, previous types.InstanceStateName) {
			if previous == types.InstanceStateNameStopped {
				i.move(call.Now, call.Transition, types.InstanceStateNamePending, types.InstanceStateNameRunning)
				i.userStopped = time.Time{}
				if i.wantsPublicIP {
					i.publicIP, addrs = addrs[0], addrs[1:]
				}
			}
		})}, nil
	})
}

// stopInstances stops running instances: stopping, then stopped on the clock, releasing their
// public addresses. Instances already stopping or stopped are left as they are; a pending,
// shutting-down or terminated one, or one whose DisableApiStop is set, refuses the whole request.
func (b *Backend) stopInstances(call *core.Call, in *ec2.StopInstancesInput) (*ec2.StopInstancesOutput, error) {
	return withInstances(b, call, in.InstanceIds, func(r *region, list []*instance) (*ec2.StopInstancesOutput, error) {
		for _, i := range list {
			switch i.state(call.Now) {
			case types.InstanceStateNameRunning, types.InstanceStateNameStopping, types.InstanceStateNameStopped:
			default:
				return nil, incorrectState(i.id, "stopped")
			}
			if i.disableStop {
				return nil, core.Errorf("OperationNotPermitted", "The instance '%s' may not be stopped. Modify its 'disableApiStop' instance attribute and try again.", i.id)
			}
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		return &ec2.StopInstancesOutput{StoppingInstances: stateChanges(list, call.Now, func(i *instance, previous types.InstanceStateName) {
			if previous == types.InstanceStateNameRunning {
				i.move(call.Now, call.Transition, types.InstanceStateNameStopping, types.InstanceStateNameStopped)
				i.publicIP, i.userStopped = netip.Addr{}, call.Now
			}
		})}, nil
	})
}

// terminateInstances shuts instances down: shutting-down, then terminated on the clock, when
// their private addresses return to the subnet. Terminating again succeeds. As AWS documents,
// when an instance has DisableApiTermination set, the request fails and the instances in its
// availability zone stay as they are, while those in zones without a protected instance are
// terminated.
func (b *Backend) terminateInstances(call *core.Call, in *ec2.TerminateInstancesInput) (*ec2.TerminateInstancesOutput, error) {
	return withInstances(b, call, in.InstanceIds, func(r *region, list []*instance) (*ec2.TerminateInstancesOutput, error) {
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		var protected *instance
		guarded := map[string]bool{} // zones with a protected instance
		for _, i := range list {
			if i.disableTermination {
				guarded[i.zone.name] = true
				if protected == nil {
					protected = i
				}
			}
		}
		unguarded := slices.DeleteFunc(slices.Clone(list), func(i *instance) bool { return guarded[i.zone.name] })
		out := &ec2.TerminateInstancesOutput{TerminatingInstances: stateChanges(unguarded, call.Now, func(i *instance, _ types.InstanceStateName) {
			if !i.ending(call.Now) {
				i.move(call.Now, call.Transition, types.InstanceStateNameShuttingDown, types.InstanceStateNameTerminated)
				i.publicIP, i.userStopped = netip.Addr{}, call.Now
			}
		})}
		if protected != nil {
			return nil, core.Errorf("OperationNotPermitted", "The instance '%s' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.", protected.id)
		}
		return out, nil
	})
}
