package ecs

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// taskDefinition is one revision of a task definition family, kept as ECS describes it.
type taskDefinition struct {
	def types.TaskDefinition
}

// arn returns the revision's ARN.
func (t *taskDefinition) arn() string { return aws.ToString(t.def.TaskDefinitionArn) }

// fargate reports whether tasks of the revision can run on Fargate.
func (t *taskDefinition) fargate() bool {
	return slices.Contains(t.def.Compatibilities, types.CompatibilityFargate)
}

// familyPattern is the form of a family name: up to 255 letters, digits, hyphens and
// underscores.
var familyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,255}$`)

// taskDefinitionRef matches a task definition ARN, family:revision or family; its groups are the
// family and the revision ("" for a family alone).
var taskDefinitionRef = regexp.MustCompile(`^(?:arn:aws[a-z-]*:ecs:[a-z0-9-]+:[0-9]{12}:task-definition/)?([A-Za-z0-9_-]{1,255})(?::([0-9]+))?$`)

// clientError is ECS's ClientException.
func clientError(format string, args ...any) error {
	return core.Errorf("ClientException", format, args...)
}

// checkTaskDefinition returns the ClientException AWS gives a task definition without a valid
// family or containers (each with a name and an image), or one that requires Fargate without
// the awsvpc network mode or without task-level cpu and memory.
func checkTaskDefinition(in *ecs.RegisterTaskDefinitionInput) error {
	if !familyPattern.MatchString(aws.ToString(in.Family)) {
		return clientError("Family must be 1 to 255 letters, numbers, hyphens and underscores.")
	}
	if len(in.ContainerDefinitions) == 0 {
		return clientError("Container list cannot be empty.")
	}
	for _, c := range in.ContainerDefinitions {
		if aws.ToString(c.Name) == "" {
			return clientError("Container.name should not be null or empty.")
		}
		if aws.ToString(c.Image) == "" {
			return clientError("Container.image should not be null or empty.")
		}
	}
	if slices.Contains(in.RequiresCompatibilities, types.CompatibilityFargate) {
		if in.NetworkMode != types.NetworkModeAwsvpc {
			return clientError("Fargate only supports network mode 'awsvpc'.")
		}
		if in.Cpu == nil || in.Memory == nil {
			return clientError("Fargate requires that 'cpu' and 'memory' be defined at the task level.")
		}
	}
	return nil
}

// registerTaskDefinition registers the next revision of a family.
func (b *Backend) registerTaskDefinition(call *core.Call, in *ecs.RegisterTaskDefinitionInput) (*ecs.RegisterTaskDefinitionOutput, error) {
	if err := checkTaskDefinition(in); err != nil {
		return nil, err
	}
	tags, err := core.RequestTags(tagRules, in.Tags, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.RegisterTaskDefinitionOutput, error) {
		family := aws.ToString(in.Family)
		revision := int32(len(r.families[family]) + 1)
		mode := in.NetworkMode
		if mode == "" {
			mode = types.NetworkModeBridge
		}
		compat := []types.Compatibility{types.CompatibilityEc2}
		if mode == types.NetworkModeAwsvpc && in.Cpu != nil && in.Memory != nil {
			compat = append(compat, types.CompatibilityFargate)
		}
		t := &taskDefinition{def: types.TaskDefinition{
			TaskDefinitionArn: aws.String(call.Scope().ARN("ecs", "task-definition/"+family+":"+strconv.Itoa(int(revision)))),
			Family:            aws.String(family), Revision: revision, Status: types.TaskDefinitionStatusActive,
			ContainerDefinitions: in.ContainerDefinitions, Cpu: in.Cpu, Memory: in.Memory, NetworkMode: mode,
			RequiresCompatibilities: in.RequiresCompatibilities, Compatibilities: compat,
			ExecutionRoleArn: in.ExecutionRoleArn, TaskRoleArn: in.TaskRoleArn, Volumes: in.Volumes,
			RuntimePlatform: in.RuntimePlatform, EphemeralStorage: in.EphemeralStorage, RegisteredAt: aws.Time(call.Now),
			PlacementConstraints: in.PlacementConstraints, ProxyConfiguration: in.ProxyConfiguration, IpcMode: in.IpcMode, PidMode: in.PidMode,
			InferenceAccelerators: in.InferenceAccelerators, EnableFaultInjection: in.EnableFaultInjection,
			TrustedExecutionConfiguration: in.TrustedExecutionConfiguration,
		}}
		if err := b.tags.Replace(t.arn(), tags); err != nil {
			return nil, err
		}
		r.families[family] = append(r.families[family], t)
		return &ecs.RegisterTaskDefinitionOutput{TaskDefinition: ptr(t.def), Tags: core.TagList(b.tags, t.arn(), core.NewTag[types.Tag])}, nil
	})
}

// taskDefinitionOf returns the revision a reference names: family:revision or an ARN that
// revision, whatever its status; a family alone its latest ACTIVE revision. The caller holds the
// backend's mutex.
func (r *region) taskDefinitionOf(ref string) (*taskDefinition, bool) {
	m := taskDefinitionRef.FindStringSubmatch(ref)
	if m == nil {
		return nil, false
	}
	revisions := r.families[m[1]]
	if m[2] == "" {
		for i := len(revisions) - 1; i >= 0; i-- {
			if revisions[i].def.Status == types.TaskDefinitionStatusActive {
				return revisions[i], true
			}
		}
		return nil, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 1 || n > len(revisions) {
		return nil, false
	}
	return revisions[n-1], true
}

// describeTaskDefinition describes a task definition revision, with its tags when asked.
func (b *Backend) describeTaskDefinition(call *core.Call, in *ecs.DescribeTaskDefinitionInput) (*ecs.DescribeTaskDefinitionOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ecs.DescribeTaskDefinitionOutput, error) {
		t, ok := r.taskDefinitionOf(aws.ToString(in.TaskDefinition))
		if !ok {
			return nil, clientError("Unable to describe task definition.")
		}
		out := &ecs.DescribeTaskDefinitionOutput{TaskDefinition: ptr(t.def)}
		if slices.Contains(in.Include, types.TaskDefinitionFieldTags) {
			out.Tags = core.TagList(b.tags, t.arn(), core.NewTag[types.Tag])
		}
		return out, nil
	})
}

// deregisterTaskDefinition makes a revision INACTIVE: services that use it keep it, new services
// cannot.
func (b *Backend) deregisterTaskDefinition(call *core.Call, in *ecs.DeregisterTaskDefinitionInput) (*ecs.DeregisterTaskDefinitionOutput, error) {
	ref := aws.ToString(in.TaskDefinition)
	if !strings.Contains(ref, ":") {
		return nil, clientError("A task definition revision must be given as family:revision or as its ARN.")
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.DeregisterTaskDefinitionOutput, error) {
		t, ok := r.taskDefinitionOf(ref)
		if !ok {
			return nil, clientError("The specified task definition does not exist.")
		}
		if t.def.Status == types.TaskDefinitionStatusActive {
			t.def.Status = types.TaskDefinitionStatusInactive
			t.def.DeregisteredAt = aws.Time(call.Now)
		}
		return &ecs.DeregisterTaskDefinitionOutput{TaskDefinition: ptr(t.def)}, nil
	})
}
