package ec2

import (
	"net/netip"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// stateChange is what StartInstances, StopInstances and TerminateInstances report of one
// instance: its state before the call and at the end of it.
func stateChange(i *instance, previous types.InstanceStateName, now time.Time) types.InstanceStateChange {
	return types.InstanceStateChange{InstanceId: aws.String(i.id), PreviousState: stateOf(previous), CurrentState: stateOf(i.state(now))}
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
		out := &ec2.StartInstancesOutput{StartingInstances: []types.InstanceStateChange{}}
		for _, i := range list {
			previous := i.state(call.Now)
			if previous == types.InstanceStateNameStopped {
				i.move(call.Now, call.Transition, types.InstanceStateNamePending, types.InstanceStateNameRunning)
				i.userStopped = time.Time{}
				if i.wantsPublicIP {
					i.publicIP, addrs = addrs[0], addrs[1:]
				}
			}
			out.StartingInstances = append(out.StartingInstances, stateChange(i, previous, call.Now))
		}
		return out, nil
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
		out := &ec2.StopInstancesOutput{StoppingInstances: []types.InstanceStateChange{}}
		for _, i := range list {
			previous := i.state(call.Now)
			if previous == types.InstanceStateNameRunning {
				i.move(call.Now, call.Transition, types.InstanceStateNameStopping, types.InstanceStateNameStopped)
				i.publicIP, i.userStopped = netip.Addr{}, call.Now
			}
			out.StoppingInstances = append(out.StoppingInstances, stateChange(i, previous, call.Now))
		}
		return out, nil
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
		out := &ec2.TerminateInstancesOutput{TerminatingInstances: []types.InstanceStateChange{}}
		for _, i := range list {
			if guarded[i.zone.name] {
				continue
			}
			previous := i.state(call.Now)
			if !i.ending(call.Now) {
				i.move(call.Now, call.Transition, types.InstanceStateNameShuttingDown, types.InstanceStateNameTerminated)
				i.publicIP, i.userStopped = netip.Addr{}, call.Now
			}
			out.TerminatingInstances = append(out.TerminatingInstances, stateChange(i, previous, call.Now))
		}
		if protected != nil {
			return nil, core.Errorf("OperationNotPermitted", "The instance '%s' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.", protected.id)
		}
		return out, nil
	})
}
