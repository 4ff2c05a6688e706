package route53

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxChanges is how many of an account's latest changes GetChange can still answer.
const maxChanges = 1000

// change is one submitted change of DNS data: PENDING until ready, INSYNC after.
type change struct {
	id, comment      string
	submitted, ready time.Time
}

// info returns the change as the SDK's ChangeInfo at now.
func (c *change) info(now time.Time) *types.ChangeInfo {
	info := &types.ChangeInfo{Id: aws.String("/change/" + c.id), SubmittedAt: aws.Time(c.submitted),
		Status: core.Ready(now, c.ready, types.ChangeStatusPending, types.ChangeStatusInsync)}
	if c.comment != "" {
		info.Comment = aws.String(c.comment)
	}
	return info
}

// changes are an account's latest changes, by id and in the order they were submitted; the
// oldest is forgotten when there are more than maxChanges.
type changes struct {
	byID  map[string]*change
	order []string
}

// submit records a change of DNS data the call made, with the batch's comment, and returns its
// ChangeInfo.
func (cs *changes) submit(call *core.Call, comment *string) *types.ChangeInfo {
	c := &change{id: newID("C"), comment: aws.ToString(comment), submitted: call.Now, ready: call.Now.Add(call.Transition)}
	cs.byID[c.id] = c
	cs.order = append(cs.order, c.id)
	if len(cs.order) > maxChanges {
		delete(cs.byID, cs.order[0])
		cs.order = cs.order[1:]
	}
	return c.info(call.Now)
}

// getChange answers the status of a change.
func (b *Backend) getChange(call *core.Call, in *route53.GetChangeInput) (*route53.GetChangeOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*route53.GetChangeOutput, error) {
		id := strings.TrimPrefix(aws.ToString(in.Id), "/change/")
		c, ok := a.changes.byID[id]
		if !ok {
			return nil, core.NotFoundf("NoSuchChange", "A change with the specified change ID does not exist: %s", id)
		}
		return &route53.GetChangeOutput{ChangeInfo: c.info(call.Now)}, nil
	})
}

// newID returns a Route 53 id with prefix ("Z" for hosted zones, "C" for changes) and 20
// upper-case letters and digits.
func newID(prefix string) string { return prefix + strings.ToUpper(core.LowerAlnumID(20)) }
