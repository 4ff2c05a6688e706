package ekscluster

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/compute/internal/eksparts"
)

// planTags plans the tag change, named field in events, that makes the cluster, node group or
// add-on arn carry exactly the desired tags (see eksparts.PlanTags).
func (p *planner) planTags(field, arn string, observed map[string]string) {
	eksparts.PlanTags(&p.obs.Changes, p.d.api, field, arn, p.tags, observed)
}

// untag removes the tag keys from the cluster, node group or add-on arn.
func (d *driver) untag(ctx context.Context, arn string, keys []string) error {
	return eksparts.Untag(ctx, d.api, arn, keys)
}
