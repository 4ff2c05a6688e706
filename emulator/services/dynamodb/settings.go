package dynamodb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

func (b *Backend) updateTimeToLive(call *core.Call, in *dynamodb.UpdateTimeToLiveInput) (*dynamodb.UpdateTimeToLiveOutput, error) {
	return withTable(b, call, in.TableName, func(t *table) (*dynamodb.UpdateTimeToLiveOutput, error) {
		spec := in.TimeToLiveSpecification
		if spec == nil || aws.ToString(spec.AttributeName) == "" {
			return nil, validation("TimeToLiveSpecification and its AttributeName are required")
		}
		enabled := t.ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled
		if aws.ToBool(spec.Enabled) == enabled {
			if enabled {
				return nil, validation("TimeToLive is already enabled")
			}
			return nil, validation("TimeToLive is already disabled")
		}
		if aws.ToBool(spec.Enabled) {
			t.ttl = types.TimeToLiveDescription{AttributeName: spec.AttributeName, TimeToLiveStatus: types.TimeToLiveStatusEnabled}
		} else {
			t.ttl = types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled}
		}
		return &dynamodb.UpdateTimeToLiveOutput{TimeToLiveSpecification: spec}, nil
	})
}

func (b *Backend) describeTimeToLive(call *core.Call, in *dynamodb.DescribeTimeToLiveInput) (*dynamodb.DescribeTimeToLiveOutput, error) {
	return withTable(b, call, in.TableName, func(t *table) (*dynamodb.DescribeTimeToLiveOutput, error) {
		ttl := t.ttl
		return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &ttl}, nil
	})
}

// withBackupTable runs f, holding b.mu, on the table a continuous backups request names; a
// table that is not there is TableNotFoundException, as those operations answer.
func withBackupTable[O any](b *Backend, call *core.Call, name *string, f func(*table) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*table, error) {
		t, err := b.lookup(call, aws.ToString(name))
		if err != nil {
			return nil, core.Errorf("TableNotFoundException", "Table not found: %s", aws.ToString(name))
		}
		return t, nil
	}, f)
}

func (b *Backend) updateContinuousBackups(call *core.Call, in *dynamodb.UpdateContinuousBackupsInput) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	return withBackupTable(b, call, in.TableName, func(t *table) (*dynamodb.UpdateContinuousBackupsOutput, error) {
		spec := in.PointInTimeRecoverySpecification
		if spec == nil || spec.PointInTimeRecoveryEnabled == nil {
			return nil, validation("PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled is required")
		}
		days := aws.ToInt32(spec.RecoveryPeriodInDays)
		if spec.RecoveryPeriodInDays != nil && (days < 1 || days > 35) {
			return nil, validation("RecoveryPeriodInDays must be from 1 to 35")
		}
		t.pitr = *spec.PointInTimeRecoveryEnabled
		t.pitrDays = 35
		if days != 0 {
			t.pitrDays = days
		}
		return &dynamodb.UpdateContinuousBackupsOutput{ContinuousBackupsDescription: t.backups()}, nil
	})
}

func (b *Backend) describeContinuousBackups(call *core.Call, in *dynamodb.DescribeContinuousBackupsInput) (*dynamodb.DescribeContinuousBackupsOutput, error) {
	return withBackupTable(b, call, in.TableName, func(t *table) (*dynamodb.DescribeContinuousBackupsOutput, error) {
		return &dynamodb.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: t.backups()}, nil
	})
}

func (t *table) backups() *types.ContinuousBackupsDescription {
	d := &types.ContinuousBackupsDescription{
		ContinuousBackupsStatus:        types.ContinuousBackupsStatusEnabled,
		PointInTimeRecoveryDescription: &types.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: types.PointInTimeRecoveryStatusDisabled},
	}
	if t.pitr {
		d.PointInTimeRecoveryDescription = &types.PointInTimeRecoveryDescription{
			PointInTimeRecoveryStatus: types.PointInTimeRecoveryStatusEnabled, RecoveryPeriodInDays: aws.Int32(t.pitrDays)}
	}
	return d
}
