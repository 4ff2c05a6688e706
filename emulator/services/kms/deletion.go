package kms

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The waiting period of ScheduleKeyDeletion, in days: 7 to 30, 30 when the request gives none.
// The API's model accepts 1 to 365 and KMS refuses the rest of that range itself.
const (
	minWindow     = 7
	maxWindow     = 30
	defaultWindow = 30
)

// checkWindow returns the waiting period a ScheduleKeyDeletion request asks for, or AWS's
// ValidationException.
func checkWindow(days *int32) (int32, error) {
	if days == nil {
		return defaultWindow, nil
	}
	switch n := *days; {
	case n < 1:
		return 0, tooSmall("pendingWindowInDays", n, 1)
	case n > 365:
		return 0, tooLarge("pendingWindowInDays", n, 365)
	case n < minWindow || n > maxWindow:
		return 0, validation("PendingWindowInDays should be between %d and %d, but it is %d", minWindow, maxWindow, n)
	}
	return *days, nil
}

// scheduleKeyDeletion schedules the deletion of a key after a waiting period (ScheduleKeyDeletion).
func (b *Backend) scheduleKeyDeletion(call *core.Call, in *kms.ScheduleKeyDeletionInput) (*kms.ScheduleKeyDeletionOutput, error) {
	window, err := checkWindow(in.PendingWindowInDays)
	if err != nil {
		return nil, err
	}
	return withManaged(b, call, in.KeyId, "ScheduleKeyDeletion", func(k *key) (*kms.ScheduleKeyDeletionOutput, error) {
		k.window = window
		out := &kms.ScheduleKeyDeletionOutput{KeyId: aws.String(k.arn), PendingWindowInDays: aws.Int32(window)}
		// A multi-Region primary key waits for its replicas to be deleted before its own waiting
		// period begins (ScheduleKeyDeletion; Deleting multi-Region keys).
		if k.multiRegion() && !k.replica() && len(b.replicaRegions(k)) > 0 {
			k.state = stateReplicaDeletion
		} else {
			k.state, k.deletion = statePendingDeletion, call.Now.Add(time.Duration(window)*day)
			out.DeletionDate = aws.Time(k.deletion)
		}
		out.KeyState = k.state
		return out, nil
	})
}

// cancelKeyDeletion cancels the scheduled deletion of a key (CancelKeyDeletion).
func (b *Backend) cancelKeyDeletion(call *core.Call, in *kms.CancelKeyDeletionInput) (*kms.CancelKeyDeletionOutput, error) {
	return withKey(b, call, in.KeyId, false, func(k *key) (*kms.CancelKeyDeletionOutput, error) {
		if err := customerOnly(call, k, "CancelKeyDeletion"); err != nil {
			return nil, err
		}
		if !k.scheduled() {
			return nil, notPendingDeletion(k)
		}
		// A key whose deletion is canceled is Disabled, whatever it was before (CancelKeyDeletion).
		k.state, k.deletion, k.window = stateDisabled, time.Time{}, 0
		return &kms.CancelKeyDeletionOutput{KeyId: aws.String(k.arn)}, nil
	})
}
