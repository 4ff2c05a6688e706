package rds

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// statusRebooting is the status of an instance while it reboots.
const statusRebooting = "rebooting"

// rebootDBInstance reboots an available instance: it is rebooting for the transition time, and
// then its parameter group's changes that waited for a reboot are applied (ParameterApplyStatus
// in-sync). ForceFailover needs a Multi-AZ instance.
func (b *Backend) rebootDBInstance(call *core.Call, in *rds.RebootDBInstanceInput) (*rds.RebootDBInstanceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.RebootDBInstanceOutput, error) {
		i, err := instanceKind.available(r, in.DBInstanceIdentifier, call.Now, func(i *instance) error {
			return core.Errorf("InvalidDBInstanceState", "Instance %s is not in available state.", i.id)
		})
		if err != nil {
			return nil, err
		}
		if aws.ToBool(in.ForceFailover) && !i.multiAZ {
			return nil, invalidCombination("Cannot do a forced failover on an instance that is not Multi-AZ.")
		}
		i.life.Start(phase{status: statusRebooting, reboots: true}, call.Now, call.Transition)
		out := r.describe(i, call.Now)
		return &rds.RebootDBInstanceOutput{DBInstance: &out}, nil
	})
}
