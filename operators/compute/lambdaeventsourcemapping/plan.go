package lambdaeventsourcemapping

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan plans the tag change and, as one UpdateEventSourceMapping (a second update is refused
// while the first is in progress), every setting that differs, each shown with AWS's value and
// the spec's.
func (d *driver) plan(obs *managed.Observation[State], m *v1alpha1.LambdaEventSourceMapping, cfg *types.EventSourceMappingConfiguration, tags map[string]string) {
	uuid, arn := aws.ToString(cfg.UUID), aws.ToString(cfg.EventSourceMappingArn)
	obs.Changes.AddTags(tags, obs.Tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &lambda.TagResourceInput{Resource: aws.String(arn), Tags: set})
		return managed.Wrap(err, "tag event source mapping %s", uuid)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagResource(ctx, &lambda.UntagResourceInput{Resource: aws.String(arn), TagKeys: keys})
		return managed.Wrap(err, "untag event source mapping %s", uuid)
	}))
	in := &lambda.UpdateEventSourceMappingInput{UUID: cfg.UUID}
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, current, desired any, differs bool, set func()) {
		if differs {
			fields = append(fields, field)
			values[field] = managed.ValuesOf(current, desired)
			set()
		}
	}
	fn := m.Spec.FunctionName
	differ("functionName", aws.ToString(cfg.FunctionArn), fn, !sameFunction(aws.ToString(cfg.FunctionArn), fn), func() { in.FunctionName = aws.String(fn) })
	size := batchSize(m, aws.ToString(cfg.EventSourceArn))
	differ("batchSize", aws.ToInt32(cfg.BatchSize), size, aws.ToInt32(cfg.BatchSize) != size, func() { in.BatchSize = aws.Int32(size) })
	window := aws.ToInt32(m.Spec.MaximumBatchingWindowInSeconds)
	differ("maximumBatchingWindowInSeconds", aws.ToInt32(cfg.MaximumBatchingWindowInSeconds), window, aws.ToInt32(cfg.MaximumBatchingWindowInSeconds) != window,
		func() { in.MaximumBatchingWindowInSeconds = aws.Int32(window) })
	have, want := patternsOf(cfg.FilterCriteria), patterns(m)
	differ("filterCriteria", have, want, !slices.Equal(have, want), func() { in.FilterCriteria = filterCriteria(want) })
	haveTypes := make([]string, 0, len(cfg.FunctionResponseTypes))
	for _, t := range cfg.FunctionResponseTypes {
		haveTypes = append(haveTypes, string(t))
	}
	wantTypes := append([]string{}, m.Spec.FunctionResponseTypes...)
	differ("functionResponseTypes", haveTypes, wantTypes, !managed.SameSet(haveTypes, wantTypes), func() { in.FunctionResponseTypes = responseTypes(m) })
	state := aws.ToString(cfg.State)
	differ("enabled", state == stateEnabled, enabled(m), (state == stateEnabled) != enabled(m), func() { in.Enabled = aws.Bool(enabled(m)) })
	obs.Changes.AddFieldValues(fields, values, func(ctx context.Context) error {
		_, err := d.api.UpdateEventSourceMapping(ctx, in)
		return managed.Wrap(err, "update event source mapping %s", uuid)
	})
}

// sameFunction reports whether arn, the function ARN AWS reports (qualified when the mapping
// names a version or an alias), is the function name names: a name, a name with a qualifier, a
// partial ARN or a full ARN.
func sameFunction(arn, name string) bool {
	if strings.HasPrefix(name, "arn:") {
		return arn == name
	}
	_, tail, ok := strings.Cut(arn, ":function:")
	if !ok {
		return false
	}
	if _, n, ok := strings.Cut(name, ":function:"); ok {
		name = n
	}
	return tail == name
}

// batchSize is the spec's batch size, or Lambda's default for the source when it is unset: 10
// for an SQS queue, 100 for a stream.
func batchSize(m *v1alpha1.LambdaEventSourceMapping, source string) int32 {
	if m.Spec.BatchSize != nil {
		return *m.Spec.BatchSize
	}
	if strings.Contains(source, ":sqs:") {
		return 10
	}
	return 100
}

// patterns are the spec's filter patterns.
func patterns(m *v1alpha1.LambdaEventSourceMapping) []string {
	out := []string{}
	if c := m.Spec.FilterCriteria; c != nil {
		for _, f := range c.Filters {
			out = append(out, f.Pattern)
		}
	}
	return out
}

// patternsOf are the patterns of AWS's filter criteria.
func patternsOf(c *types.FilterCriteria) []string {
	out := []string{}
	if c != nil {
		for _, f := range c.Filters {
			out = append(out, aws.ToString(f.Pattern))
		}
	}
	return out
}

// filterCriteria are the criteria of patterns: an empty list removes the filters.
func filterCriteria(patterns []string) *types.FilterCriteria {
	c := &types.FilterCriteria{Filters: []types.Filter{}}
	for _, p := range patterns {
		c.Filters = append(c.Filters, types.Filter{Pattern: aws.String(p)})
	}
	return c
}

// responseTypes are the spec's function response types; an empty list removes them.
func responseTypes(m *v1alpha1.LambdaEventSourceMapping) []types.FunctionResponseType {
	out := []types.FunctionResponseType{}
	for _, t := range m.Spec.FunctionResponseTypes {
		out = append(out, types.FunctionResponseType(t))
	}
	return out
}
