package lambda

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Queues is what Lambda needs of SQS for event source mappings: whether a queue exists.
type Queues interface {
	// QueueByARN reports whether the SQS queue with arn exists, and whether it is a FIFO queue.
	QueueByARN(arn string) (fifo, ok bool)
}

// Streams is what Lambda needs of DynamoDB for event source mappings: whether a stream exists.
type Streams interface {
	// StreamByARN reports whether the DynamoDB stream with arn is its table's current stream.
	StreamByARN(arn string) bool
}

// sources are the services whose resources event source mappings read, and IAM, whose roles
// may read them. Kinesis, Amazon MQ and Kafka are not emulated: their ARNs are accepted
// unchecked.
type sources struct {
	queues  Queues
	streams Streams
	roles   Roles
}

// The states of an event source mapping (AWS Lambda API Reference,
// EventSourceMappingConfiguration.State).
const (
	mappingCreating  = "Creating"
	mappingEnabling  = "Enabling"
	mappingEnabled   = "Enabled"
	mappingDisabling = "Disabling"
	mappingDisabled  = "Disabled"
	mappingUpdating  = "Updating"
	mappingDeleting  = "Deleting"
)

// mapping is one event source mapping: its configuration and its state on the clock.
type mapping struct {
	scope core.Scope
	cfg   types.EventSourceMappingConfiguration
	// life is Creating, Updating, Enabling, Disabling or Deleting for a transition's time,
	// then Enabled or Disabled (or gone, after Deleting).
	life     core.Lifecycle[string]
	deleting bool
}

// settleMappings ends the transitions of the mappings whose time has come and forgets the
// deleted ones. The caller holds the backend's lock.
func (b *Backend) settleMappings(now time.Time) {
	for id, m := range b.mappings {
		m.cfg.State = aws.String(m.life.Settle(now, nil))
		if m.deleting && !m.life.Busy() {
			delete(b.mappings, id)
			b.tags.Delete(aws.ToString(m.cfg.EventSourceMappingArn))
		}
	}
}

// mappingNotFound is Lambda's answer for a UUID no mapping has.
func mappingNotFound() *core.APIError {
	return core.NotFoundf("ResourceNotFoundException", "The resource you requested does not exist.")
}

// resourceInUse is Lambda's answer to a change of a mapping in transition (HTTP 400).
func resourceInUse(uuid string) *core.APIError {
	return &core.APIError{Code: "ResourceInUseException", Status: http.StatusBadRequest,
		Message: fmt.Sprintf("Cannot update the event source mapping '%s' because it is in use.", uuid)}
}

// findMapping returns the caller's mapping with uuid, settled. The caller holds the lock.
func (b *Backend) findMapping(call *core.Call, uuid *string) (*mapping, error) {
	if aws.ToString(uuid) == "" {
		return nil, validationf("Value null at 'uUID' failed to satisfy constraint: Member must not be null")
	}
	b.settleMappings(call.Now)
	m, ok := b.mappings[aws.ToString(uuid)]
	if !ok || m.scope != call.Scope() {
		return nil, mappingNotFound()
	}
	return m, nil
}

// sourceKind returns the service of an event source ARN: sqs, dynamodb, kinesis, kafka or mq.
func sourceKind(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 || parts[0] != "arn" {
		return ""
	}
	return parts[2]
}

// mappingFunction returns the ARN of the function (qualified when the name is) a mapping's
// FunctionName names, and the function's execution role; the function must exist. The caller
// holds the lock.
func (b *Backend) mappingFunction(call *core.Call, name *string) (arn, role string, err error) {
	if name == nil {
		return "", "", validationf("Value null at 'functionName' failed to satisfy constraint: Member must not be null")
	}
	t, err := parseTarget(call, name, nil)
	if err != nil {
		return "", "", err
	}
	f, err := b.find(call, t)
	if err != nil {
		return "", "", err
	}
	if t.qualifier != "" && t.qualifier != "$LATEST" {
		if _, ok := f.versions[t.qualifier]; !ok {
			return "", "", functionNotFound(call, t)
		}
	}
	return t.arn(call), aws.ToString(f.cfg.Role), nil
}

// batchSettings checks a mapping's batch size and batching window for its source, as the API
// reference documents them: 1 to 10000 records (10 for a FIFO queue), a window of 0 to 300
// seconds, and a window of at least 1 second for a standard queue's batch above 10.
func batchSettings(kind string, fifo bool, size, window *int32) error {
	if size != nil {
		limit := int32(10000)
		if fifo {
			limit = 10
		}
		if *size < 1 || *size > limit {
			return invalidParameter("BatchSize must be between 1 and %d for this event source, got %d.", limit, *size)
		}
	}
	if window != nil && (*window < 0 || *window > 300) {
		return validationf("Value '%d' at 'maximumBatchingWindowInSeconds' failed to satisfy constraint: Member must have value less than or equal to 300", *window)
	}
	if kind == "sqs" && !fifo && aws.ToInt32(size) > 10 && aws.ToInt32(window) < 1 {
		return invalidParameter("Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10")
	}
	return nil
}

// checkDelivery checks a mapping's filter criteria and function response types, as create and
// update both take them.
func checkDelivery(filters *types.FilterCriteria, responseTypes []types.FunctionResponseType) error {
	if err := checkFilters(filters); err != nil {
		return err
	}
	return checkResponseTypes(responseTypes)
}

// checkFilters checks filter criteria: at most 5 filters, each a JSON object.
func checkFilters(c *types.FilterCriteria) error {
	if c == nil {
		return nil
	}
	if len(c.Filters) > 5 {
		return invalidParameter("Invalid filter pattern definition. A mapping can have at most 5 filters.")
	}
	for _, f := range c.Filters {
		var v map[string]any
		if json.Unmarshal([]byte(aws.ToString(f.Pattern)), &v) != nil {
			return invalidParameter("Invalid filter pattern definition.")
		}
	}
	return nil
}

// checkResponseTypes checks FunctionResponseTypes: ReportBatchItemFailures only.
func checkResponseTypes(v []types.FunctionResponseType) error {
	for _, t := range v {
		if t != types.FunctionResponseTypeReportBatchItemFailures {
			return validationf("Value '[%s]' at 'functionResponseTypes' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]", t)
		}
	}
	return nil
}

// createEventSourceMapping creates a mapping, Creating for a transition's time and then Enabled
// (Disabled with Enabled false), after checking its function, its source (which must exist,
// InvalidParameterValueException otherwise), that the function's execution role may read the
// source (checkSourceAccess) and its settings; a second mapping of the same function and source
// is a ResourceConflictException.
func (b *Backend) createEventSourceMapping(call *core.Call, in *lambda.CreateEventSourceMappingInput) (*lambda.CreateEventSourceMappingOutput, error) {
	source := aws.ToString(in.EventSourceArn)
	kind := sourceKind(source)
	switch kind {
	case "sqs", "dynamodb", "kinesis", "kafka", "mq":
	default:
		return nil, invalidParameter("Unrecognized event source, must be kinesis, dynamodb stream or sqs. Unsupported source arn : %s", source)
	}
	fifo, streamed := false, kind == "dynamodb" || kind == "kinesis" || kind == "kafka"
	switch kind {
	case "sqs":
		var ok bool
		if fifo, ok = b.sources.queues.QueueByARN(source); !ok {
			return nil, invalidParameter("Error occurred while ReceiveMessage. SQS Error Code: AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not exist for this wsdl version.")
		}
	case "dynamodb":
		if !b.sources.streams.StreamByARN(source) {
			return nil, invalidParameter("Stream not found: %s", source)
		}
	}
	switch {
	case streamed && in.StartingPosition == "":
		return nil, invalidParameter("StartingPosition is required for a stream event source.")
	case !streamed && in.StartingPosition != "":
		return nil, invalidParameter("Unsupported starting position for this event source type.")
	case in.StartingPosition != "" && !slices.Contains(types.EventSourcePosition("").Values(), in.StartingPosition):
		return nil, validationf("Value '%s' at 'startingPosition' failed to satisfy constraint: Member must satisfy enum value set: [LATEST, AT_TIMESTAMP, TRIM_HORIZON]", in.StartingPosition)
	}
	if err := batchSettings(kind, fifo, in.BatchSize, in.MaximumBatchingWindowInSeconds); err != nil {
		return nil, err
	}
	if err := checkDelivery(in.FilterCriteria, in.FunctionResponseTypes); err != nil {
		return nil, err
	}
	b.state.Lock()
	defer b.state.Unlock()
	fn, role, err := b.mappingFunction(call, in.FunctionName)
	if err != nil {
		return nil, err
	}
	if err := b.checkSourceAccess(call, role, kind, source); err != nil {
		return nil, err
	}
	b.settleMappings(call.Now)
	for _, m := range b.mappings {
		if m.scope == call.Scope() && aws.ToString(m.cfg.EventSourceArn) == source && aws.ToString(m.cfg.FunctionArn) == fn && !m.deleting {
			return nil, conflict("The event source arn (\" %s \") and function (\" %s \") provided mapping already exists. Please update or delete the existing mapping with UUID %s",
				source, aws.ToString(in.FunctionName), aws.ToString(m.cfg.UUID))
		}
	}
	id := core.NewUUID()
	arn := call.Scope().ARN("lambda", "event-source-mapping:"+id)
	if err := b.tags.Merge(in.Tags, arn); err != nil {
		return nil, err
	}
	size := in.BatchSize
	if size == nil {
		size = aws.Int32(10)
		if streamed {
			size = aws.Int32(100)
		}
	}
	rest := mappingEnabled
	if in.Enabled != nil && !*in.Enabled {
		rest = mappingDisabled
	}
	m := &mapping{scope: call.Scope(), life: core.NewLifecycle(rest)}
	m.life.Start(mappingCreating, call.Now, call.Transition)
	m.cfg = types.EventSourceMappingConfiguration{UUID: aws.String(id), EventSourceMappingArn: aws.String(arn),
		EventSourceArn: aws.String(source), FunctionArn: aws.String(fn), BatchSize: size,
		MaximumBatchingWindowInSeconds: aws.Int32(aws.ToInt32(in.MaximumBatchingWindowInSeconds)),
		StartingPosition:               in.StartingPosition, StartingPositionTimestamp: in.StartingPositionTimestamp,
		FilterCriteria: filtersOf(in.FilterCriteria), FunctionResponseTypes: in.FunctionResponseTypes,
		LastModified: aws.Time(call.Now), LastProcessingResult: aws.String("No records processed"),
		State: aws.String(mappingCreating), StateTransitionReason: aws.String("USER_INITIATED")}
	if streamed {
		m.cfg.ParallelizationFactor, m.cfg.MaximumRetryAttempts, m.cfg.MaximumRecordAgeInSeconds = aws.Int32(1), aws.Int32(-1), aws.Int32(-1)
		m.cfg.BisectBatchOnFunctionError, m.cfg.TumblingWindowInSeconds = aws.Bool(false), aws.Int32(0)
	}
	b.mappings[id] = m
	out := &lambda.CreateEventSourceMappingOutput{}
	copyFields(out, m.cfg)
	return out, nil
}

// filtersOf returns the criteria a mapping keeps: none for nil or no filters.
func filtersOf(c *types.FilterCriteria) *types.FilterCriteria {
	if c == nil || len(c.Filters) == 0 {
		return nil
	}
	return &types.FilterCriteria{Filters: slices.Clone(c.Filters)}
}

// getEventSourceMapping answers a mapping's configuration and state.
func (b *Backend) getEventSourceMapping(call *core.Call, in *lambda.GetEventSourceMappingInput) (*lambda.GetEventSourceMappingOutput, error) {
	b.state.Lock()
	defer b.state.Unlock()
	m, err := b.findMapping(call, in.UUID)
	if err != nil {
		return nil, err
	}
	out := &lambda.GetEventSourceMappingOutput{}
	copyFields(out, m.cfg)
	return out, nil
}

// updateEventSourceMapping changes a mapping's function, batching, filters, response types
// or enabled state; the mapping is Updating (Enabling, Disabling) for a transition's time, and
// a mapping in transition refuses the change with ResourceInUseException, as on AWS.
func (b *Backend) updateEventSourceMapping(call *core.Call, in *lambda.UpdateEventSourceMappingInput) (*lambda.UpdateEventSourceMappingOutput, error) {
	if err := checkDelivery(in.FilterCriteria, in.FunctionResponseTypes); err != nil {
		return nil, err
	}
	b.state.Lock()
	defer b.state.Unlock()
	m, err := b.findMapping(call, in.UUID)
	if err != nil {
		return nil, err
	}
	if m.life.Busy() {
		return nil, resourceInUse(aws.ToString(m.cfg.UUID))
	}
	source := aws.ToString(m.cfg.EventSourceArn)
	kind := sourceKind(source)
	fifo, _ := b.sources.queues.QueueByARN(source)
	size, window := m.cfg.BatchSize, m.cfg.MaximumBatchingWindowInSeconds
	if in.BatchSize != nil {
		size = in.BatchSize
	}
	if in.MaximumBatchingWindowInSeconds != nil {
		window = in.MaximumBatchingWindowInSeconds
	}
	if err := batchSettings(kind, fifo && kind == "sqs", size, window); err != nil {
		return nil, err
	}
	fn := aws.ToString(m.cfg.FunctionArn)
	if in.FunctionName != nil {
		if fn, _, err = b.mappingFunction(call, in.FunctionName); err != nil {
			return nil, err
		}
	}
	step, rest := mappingUpdating, m.life.Status()
	if in.Enabled != nil {
		switch {
		case *in.Enabled && rest == mappingDisabled:
			step, rest = mappingEnabling, mappingEnabled
		case !*in.Enabled && rest == mappingEnabled:
			step, rest = mappingDisabling, mappingDisabled
		}
	}
	m.cfg.FunctionArn, m.cfg.BatchSize, m.cfg.MaximumBatchingWindowInSeconds = aws.String(fn), size, window
	if in.FilterCriteria != nil {
		m.cfg.FilterCriteria = filtersOf(in.FilterCriteria)
	}
	if in.FunctionResponseTypes != nil {
		m.cfg.FunctionResponseTypes = in.FunctionResponseTypes
		if len(in.FunctionResponseTypes) == 0 {
			m.cfg.FunctionResponseTypes = nil
		}
	}
	m.life = core.NewLifecycle(rest)
	m.life.Start(step, call.Now, call.Transition)
	m.cfg.State, m.cfg.LastModified, m.cfg.StateTransitionReason = aws.String(step), aws.Time(call.Now), aws.String("USER_INITIATED")
	out := &lambda.UpdateEventSourceMappingOutput{}
	copyFields(out, m.cfg)
	return out, nil
}

// deleteEventSourceMapping starts a mapping's deletion: it is Deleting for a transition's time,
// then gone. A mapping being created or updated refuses with ResourceInUseException.
func (b *Backend) deleteEventSourceMapping(call *core.Call, in *lambda.DeleteEventSourceMappingInput) (*lambda.DeleteEventSourceMappingOutput, error) {
	b.state.Lock()
	defer b.state.Unlock()
	m, err := b.findMapping(call, in.UUID)
	if err != nil {
		return nil, err
	}
	if !m.deleting {
		if m.life.Busy() {
			return nil, resourceInUse(aws.ToString(m.cfg.UUID))
		}
		m.deleting = true
		m.life = core.NewLifecycle(mappingDeleting)
		m.life.Start(mappingDeleting, call.Now, call.Transition)
		m.cfg.State, m.cfg.LastModified = aws.String(mappingDeleting), aws.Time(call.Now)
	}
	out := &lambda.DeleteEventSourceMappingOutput{}
	copyFields(out, m.cfg)
	return out, nil
}

// listEventSourceMappings lists the caller's mappings, of one function (by name or ARN) and of
// one source when the request names them, MaxItems (1 to 10000, default 100) at a time.
func (b *Backend) listEventSourceMappings(call *core.Call, in *lambda.ListEventSourceMappingsInput) (*lambda.ListEventSourceMappingsOutput, error) {
	return listed(b, in.MaxItems, 100, 10000, func(size int) (*lambda.ListEventSourceMappingsOutput, error) {
		fn := ""
		if in.FunctionName != nil {
			t, err := parseTarget(call, in.FunctionName, nil)
			if err != nil {
				return nil, err
			}
			fn = t.arn(call)
		}
		b.settleMappings(call.Now)
		var ids []string
		for _, id := range core.SortedKeys(b.mappings) {
			m := b.mappings[id]
			if m.scope != call.Scope() || in.EventSourceArn != nil && aws.ToString(m.cfg.EventSourceArn) != aws.ToString(in.EventSourceArn) ||
				fn != "" && aws.ToString(m.cfg.FunctionArn) != fn {
				continue
			}
			ids = append(ids, id)
		}
		list, next, err := pageOfKeys(ids, in.Marker, size, func(id string) types.EventSourceMappingConfiguration { return b.mappings[id].cfg })
		return &lambda.ListEventSourceMappingsOutput{EventSourceMappings: list, NextMarker: next}, err
	})
}
