package ecstaskdefinition

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what ECS said about the family's latest ACTIVE revision.
type State struct {
	// TaskDefinition is the revision, and Tags its tags.
	TaskDefinition types.TaskDefinition
	Tags           map[string]string
}

// Observe reads the family's latest ACTIVE revision with one DescribeTaskDefinition (its tags
// included) and claims it when its ownership tags name this object: a revision registered by
// a create whose answer was lost is found this way, never registered twice. It fills the
// status and plans, when the revision differs from the spec, one RegisterTaskDefinition of the
// next revision; tags are changed on the current revision; older revisions of the object's that
// no ECSService of the namespace deploys any more are deregistered.
func (d *driver) Observe(ctx context.Context, t *v1alpha1.ECSTaskDefinition, req managed.Request) (managed.Observation[State], error) {
	name := family(t)
	out, err := d.api.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String(name),
		Include: []types.TaskDefinitionField{types.TaskDefinitionFieldTags}})
	if isMissing(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "describe task definition %s", name)
	}
	st := &State{TaskDefinition: *out.TaskDefinition, Tags: ecsutil.TagMap(out.Tags)}
	if err := managed.Claim(t, "ECS task definition family", name, st.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	record(t, st.TaskDefinition)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: st, Tags: st.Tags}
	if req.Deleting {
		return obs, nil
	}
	want := registration(t, req.Tags)
	fields, shown := differences(viewOf(st.TaskDefinition), requested(want))
	values := map[string]managed.Values{}
	for f, v := range shown {
		values[f] = managed.ValuesOf(v[0], v[1])
	}
	obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error { return d.register(ctx, t, want) })
	if len(fields) == 0 {
		ecsutil.PlanTags(&obs.Changes, d.api, st.TaskDefinition.TaskDefinitionArn, "task definition "+aws.ToString(st.TaskDefinition.TaskDefinitionArn), req.Tags, st.Tags)
	}
	unused, err := d.unused(ctx, t)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if len(unused) > 0 {
		obs.Changes.AddValue("previousRevisions", t.Status.PreviousRevisions, slices.DeleteFunc(slices.Clone(t.Status.PreviousRevisions),
			func(arn string) bool { return slices.Contains(unused, arn) }), func(ctx context.Context) error { return d.deregister(ctx, t, unused) })
	}
	return obs, nil
}

// record notes in the status the revision td, the family's latest: a revision the object
// recorded before becomes a previous revision.
func record(t *v1alpha1.ECSTaskDefinition, td types.TaskDefinition) {
	arn := aws.ToString(td.TaskDefinitionArn)
	s := &t.Status
	if s.TaskDefinitionARN != "" && s.TaskDefinitionARN != arn && !slices.Contains(s.PreviousRevisions, s.TaskDefinitionARN) {
		s.PreviousRevisions = append(s.PreviousRevisions, s.TaskDefinitionARN)
	}
	s.PreviousRevisions = slices.DeleteFunc(s.PreviousRevisions, func(a string) bool { return a == arn })
	s.Family, s.TaskDefinitionARN, s.Revision = aws.ToString(td.Family), arn, td.Revision
}

// register registers the spec's revision and records it at once.
func (d *driver) register(ctx context.Context, t *v1alpha1.ECSTaskDefinition, in *ecs.RegisterTaskDefinitionInput) error {
	out, err := d.api.RegisterTaskDefinition(ctx, in)
	if err != nil {
		return managed.Wrap(err, "register a revision of task definition %s", family(t))
	}
	record(t, *out.TaskDefinition)
	return nil
}

// isMissing reports whether err is ECS's answer to a family with no ACTIVE revision.
func isMissing(err error) bool {
	return awserr.Code(err) == "ClientException" && strings.Contains(err.Error(), "Unable to describe task definition")
}
