package eks

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// phase is where a cluster, node group or add-on is in its lifecycle; each kind names the
// phases with its own status enum.
type phase int

const (
	phaseCreating phase = iota
	phaseActive
	phaseUpdating
	phaseDeleting
	phaseGone
)

// lifecycle is the part of a cluster, node group or add-on that moves on the simulation clock:
// its creation, its updates and its deletion.
type lifecycle struct {
	readyAt   time.Time // when creation ends
	deleting  bool
	deletedAt time.Time // when deletion started, once deleting
	goneAt    time.Time // when deletion ends, once deleting
	updates   []*update // every update, oldest first
}

// update is one update of a resource: InProgress until its time comes, then Successful, when
// its change applies.
type update struct {
	out   types.Update
	until time.Time
	token string
	apply func()
}

// settle finishes the update once its time has come, applying its change.
func (u *update) settle(now time.Time) {
	if u.out.Status != types.UpdateStatusInProgress || now.Before(u.until) {
		return
	}
	u.out.Status = types.UpdateStatusSuccessful
	if u.apply != nil {
		u.apply()
		u.apply = nil
	}
}

// view returns the update as AWS describes it.
func (u *update) view() *types.Update {
	out := u.out
	out.Params = append([]types.UpdateParam{}, u.out.Params...)
	out.Errors = []types.ErrorDetail{}
	return &out
}

// phase settles the resource's updates and returns its phase at now.
func (l *lifecycle) phase(now time.Time) phase {
	for _, u := range l.updates {
		u.settle(now)
	}
	switch {
	case l.deleting && !now.Before(l.goneAt):
		return phaseGone
	case l.deleting:
		return phaseDeleting
	case now.Before(l.readyAt):
		return phaseCreating
	case l.inProgress() != nil:
		return phaseUpdating
	}
	return phaseActive
}

// provisioned reports whether creation had ended at now, before any deletion started.
func (l *lifecycle) provisioned(now time.Time) bool {
	return !now.Before(l.readyAt) && (!l.deleting || !l.deletedAt.Before(l.readyAt))
}

// inProgress returns the update in progress, or nil.
func (l *lifecycle) inProgress() *update {
	for _, u := range l.updates {
		if u.out.Status == types.UpdateStatusInProgress {
			return u
		}
	}
	return nil
}

// startDelete starts the deletion, which ends a transition later.
func (l *lifecycle) startDelete(call *core.Call) {
	if !l.deleting {
		l.deleting, l.deletedAt, l.goneAt = true, call.Now, call.Now.Add(call.Transition)
	}
}

// repeated returns the update that an earlier request with the same client request token
// started, or nil: EKS answers a retried update with the update it started.
func (l *lifecycle) repeated(token *string) *update {
	if aws.ToString(token) == "" {
		return nil
	}
	for _, u := range l.updates {
		if u.token == *token {
			return u
		}
	}
	return nil
}

// start starts an update of type typ with params, whose change apply makes when it ends a
// transition later, and returns it as the response shows it.
func (l *lifecycle) start(call *core.Call, typ types.UpdateType, params []types.UpdateParam, token *string, apply func()) *types.Update {
	u := &update{
		out: types.Update{Id: aws.String(core.NewUUID()), Type: typ, Status: types.UpdateStatusInProgress, Params: params,
			CreatedAt: aws.Time(call.Now)},
		until: call.Now.Add(call.Transition), token: aws.ToString(token), apply: apply,
	}
	l.updates = append(l.updates, u)
	return u.view()
}

// find returns the update with the given id, settled at now, or nil.
func (l *lifecycle) find(id string, now time.Time) *update {
	for _, u := range l.updates {
		if aws.ToString(u.out.Id) == id {
			u.settle(now)
			return u
		}
	}
	return nil
}

// param is one parameter of an update.
func param(typ types.UpdateParamType, value string) types.UpdateParam {
	return types.UpdateParam{Type: typ, Value: aws.String(value)}
}
