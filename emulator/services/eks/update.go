package eks

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// updated returns the lifecycle whose updates a DescribeUpdate or ListUpdates request names: the
// cluster's, or that of one of its node groups or add-ons. The caller holds the backend's mutex.
func (r *region) updated(call *core.Call, name, nodegroup, addon *string) (*lifecycle, error) {
	c, err := r.cluster("name", aws.ToString(name), call.Now)
	if err != nil {
		return nil, err
	}
	switch {
	case aws.ToString(nodegroup) != "":
		g, err := c.lookupNodegroup(r, aws.ToString(nodegroup), call.Now)
		if err != nil {
			return nil, err
		}
		return &g.lifecycle, nil
	case aws.ToString(addon) != "":
		a, err := c.lookupAddon(r, aws.ToString(addon), call.Now)
		if err != nil {
			return nil, err
		}
		return &a.lifecycle, nil
	}
	return &c.lifecycle, nil
}

func (b *Backend) describeUpdate(call *core.Call, in *eks.DescribeUpdateInput) (*eks.DescribeUpdateOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.DescribeUpdateOutput, error) {
		l, err := r.updated(call, in.Name, in.NodegroupName, in.AddonName)
		if err != nil {
			return nil, err
		}
		u := l.find(aws.ToString(in.UpdateId), call.Now)
		if u == nil {
			return nil, notFound("No update found for ID: %s", aws.ToString(in.UpdateId))
		}
		return &eks.DescribeUpdateOutput{Update: u.view()}, nil
	})
}

func (b *Backend) listUpdates(call *core.Call, in *eks.ListUpdatesInput) (*eks.ListUpdatesOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.ListUpdatesOutput, error) {
		l, err := r.updated(call, in.Name, in.NodegroupName, in.AddonName)
		if err != nil {
			return nil, err
		}
		ids := make([]string, 0, len(l.updates))
		for _, u := range l.updates {
			ids = append(ids, aws.ToString(u.out.Id))
		}
		out, next, err := page(ids, in.NextToken, in.MaxResults)
		if err != nil {
			return nil, err
		}
		return &eks.ListUpdatesOutput{UpdateIds: out, NextToken: next}, nil
	})
}
