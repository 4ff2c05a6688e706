package lambdaeventsourcemapping

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// The states AWS reports for a mapping (EventSourceMappingConfiguration.State).
const (
	stateEnabled  = "Enabled"
	stateDisabled = "Disabled"
	stateDeleting = "Deleting"
)

// transition is how long a mapping's transition (Creating, Updating, Enabling, Disabling)
// takes: seconds in AWS, 1s in the emulator.
const transition = time.Second

// State is what AWS said about a mapping.
type State struct {
	// Mapping is the mapping's configuration and state.
	Mapping *types.EventSourceMappingConfiguration
}

// Observe reads the mapping by its recorded UUID with GetEventSourceMapping, and its tags with
// ListTags. Before a UUID is recorded it looks for a mapping of the spec's function and source
// (ListEventSourceMappings), which a create whose answer was lost may have made: one function
// has at most one mapping per source. A mapping in transition (Creating, Updating, Enabling,
// Disabling, Deleting) is busy; one that rests in the state the spec asks for (Enabled, or
// Disabled with enabled false) is Ready, and the differences are planned as one
// UpdateEventSourceMapping.
func (d *driver) Observe(ctx context.Context, m *v1alpha1.LambdaEventSourceMapping, req managed.Request) (managed.Observation[State], error) {
	cfg, err := d.read(ctx, m, req)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if cfg == nil {
		if req.Deleting {
			return managed.Observation[State]{}, nil
		}
		return managed.Observation[State]{}, d.checkForeign(ctx, m)
	}
	uuid, arn := aws.ToString(cfg.UUID), aws.ToString(cfg.EventSourceMappingArn)
	tags, err := d.tags(ctx, arn)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(m, "event source mapping", uuid, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(m, cfg)
	obs := managed.Observation[State]{Exists: true, State: &State{Mapping: cfg}, Tags: tags}
	state := aws.ToString(cfg.State)
	if req.Deleting {
		return obs, nil
	}
	if state != stateEnabled && state != stateDisabled {
		obs.Busy, obs.Message, obs.Uncompared = true, fmt.Sprintf("event source mapping %s is %s", uuid, state), []string{"configuration (" + state + ")"}
		// A transition takes seconds: look again then rather than at the engine's backoff.
		obs.ReadyIn = transition
		return obs, nil
	}
	want := wantedState(m)
	obs.Ready = state == want
	if !obs.Ready {
		obs.Message = fmt.Sprintf("event source mapping %s is %s, the spec asks for %s", uuid, state, want)
	}
	d.plan(&obs, m, cfg, req.Tags)
	return obs, nil
}

// read returns the mapping with the recorded UUID, or before one is recorded the mapping of
// the spec's function and source; nil when there is none.
func (d *driver) read(ctx context.Context, m *v1alpha1.LambdaEventSourceMapping, req managed.Request) (*types.EventSourceMappingConfiguration, error) {
	if uuid := managed.ExternalName(m); uuid != "" {
		out, err := d.api.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: aws.String(uuid)})
		if awserr.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, managed.Wrap(err, "get event source mapping %s", uuid)
		}
		cfg := types.EventSourceMappingConfiguration{}
		copyOut(&cfg, out)
		return &cfg, nil
	}
	if req.Deleting || m.Spec.FunctionName == "" || m.Spec.EventSourceARN == "" {
		// Nothing recorded and references not resolved: no mapping of this object's is known.
		return nil, nil
	}
	out, err := d.api.ListEventSourceMappings(ctx, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String(m.Spec.FunctionName),
		EventSourceArn: aws.String(m.Spec.EventSourceARN)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, managed.Wrap(err, "list the event source mappings of function %s and source %s", m.Spec.FunctionName, m.Spec.EventSourceARN)
	}
	for i := range out.EventSourceMappings {
		if c := &out.EventSourceMappings[i]; aws.ToString(c.State) != stateDeleting {
			return c, nil
		}
	}
	return nil, nil
}

// tags returns the mapping's tags.
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	out, err := d.api.ListTags(ctx, &lambda.ListTagsInput{Resource: aws.String(arn)})
	if err != nil {
		return nil, managed.Wrap(err, "list the tags of event source mapping %s", arn)
	}
	if out.Tags == nil {
		return map[string]string{}, nil
	}
	return out.Tags, nil
}

// copyOut copies GetEventSourceMapping's answer into a configuration.
func copyOut(cfg *types.EventSourceMappingConfiguration, out *lambda.GetEventSourceMappingOutput) {
	cfg.UUID, cfg.EventSourceMappingArn, cfg.EventSourceArn, cfg.FunctionArn = out.UUID, out.EventSourceMappingArn, out.EventSourceArn, out.FunctionArn
	cfg.State, cfg.StateTransitionReason, cfg.LastProcessingResult = out.State, out.StateTransitionReason, out.LastProcessingResult
	cfg.BatchSize, cfg.MaximumBatchingWindowInSeconds, cfg.StartingPosition = out.BatchSize, out.MaximumBatchingWindowInSeconds, out.StartingPosition
	cfg.FilterCriteria, cfg.FunctionResponseTypes = out.FilterCriteria, out.FunctionResponseTypes
}

// fillStatus copies what AWS said about the mapping into the status.
func fillStatus(m *v1alpha1.LambdaEventSourceMapping, cfg *types.EventSourceMappingConfiguration) {
	s := &m.Status
	s.UUID, s.EventSourceMappingARN = aws.ToString(cfg.UUID), aws.ToString(cfg.EventSourceMappingArn)
	s.FunctionARN, s.EventSourceARN = aws.ToString(cfg.FunctionArn), aws.ToString(cfg.EventSourceArn)
	s.State, s.StateTransitionReason, s.LastProcessingResult = aws.ToString(cfg.State), aws.ToString(cfg.StateTransitionReason), aws.ToString(cfg.LastProcessingResult)
}

// wantedState is the state the spec asks the mapping to rest in.
func wantedState(m *v1alpha1.LambdaEventSourceMapping) string {
	if enabled(m) {
		return stateEnabled
	}
	return stateDisabled
}

// enabled reports whether the spec asks for polling (unset is true).
func enabled(m *v1alpha1.LambdaEventSourceMapping) bool {
	return m.Spec.Enabled == nil || *m.Spec.Enabled
}

// checkForeign refuses, before the mapping is created, a source or a function named by name or
// ARN that the namespace may not write into (managed.CheckForeignWrite, operator flag
// --foreign-write-namespaces): a mapping consumes its source (for a queue, it deletes its
// messages) and becomes a trigger of its function. A queueRef, tableRef or functionRef names an
// object of the namespace. A source's tags are not read (it may be of another service), so a
// source named by ARN counts as not owned; a function's are, from GetFunction.
func (d *driver) checkForeign(ctx context.Context, m *v1alpha1.LambdaEventSourceMapping) error {
	if m.Spec.QueueRef == nil && m.Spec.TableRef == nil {
		if err := managed.CheckForeignWrite(ctx, m, "event source", m.Spec.EventSourceARN, nil); err != nil {
			return err
		}
	}
	if m.Spec.FunctionRef != nil {
		return nil
	}
	out, err := d.api.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String(m.Spec.FunctionName)})
	if err != nil {
		return managed.Wrap(err, "read the tags of Lambda function %s", m.Spec.FunctionName)
	}
	return managed.CheckForeignWrite(ctx, m, "Lambda function", m.Spec.FunctionName, out.Tags)
}
