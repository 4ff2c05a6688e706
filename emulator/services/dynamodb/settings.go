package dynamodb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

func (b *Backend) updateTimeToLive(call *core.Call, in *dynamodb.UpdateTimeToLiveInput) (*dynamodb.UpdateTimeToLiveOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.TableName))
	if err != nil {
		return nil, err
	}
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
}

func (b *Backend) describeTimeToLive(call *core.Call, in *dynamodb.DescribeTimeToLiveInput) (*dynamodb.DescribeTimeToLiveOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.TableName))
	if err != nil {
		return nil, err
	}
	ttl := t.ttl
	return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &ttl}, nil
}

func (b *Backend) updateContinuousBackups(call *core.Call, in *dynamodb.UpdateContinuousBackupsInput) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.TableName))
	if err != nil {
		return nil, core.Errorf("TableNotFoundException", "Table not found: %s", aws.ToString(in.TableName))
	}
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
}

func (b *Backend) describeContinuousBackups(call *core.Call, in *dynamodb.DescribeContinuousBackupsInput) (*dynamodb.DescribeContinuousBackupsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.TableName))
	if err != nil {
		return nil, core.Errorf("TableNotFoundException", "Table not found: %s", aws.ToString(in.TableName))
	}
	return &dynamodb.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: t.backups()}, nil
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
