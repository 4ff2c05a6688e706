package ecs

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// taskRef matches a task ARN (with the cluster's name, or the older form without) or a task ID;
// its group is the ID.
var taskRef = regexp.MustCompile(`^(?:arn:aws[a-z-]*:ecs:[a-z0-9-]+:[0-9]{12}:task/(?:[A-Za-z0-9_-]+/)?)?([a-f0-9]{32})$`)

// located is a task and the service that started it.
type located struct {
	service *service
	task    *task
}

// tasksOf returns the cluster's tasks, every service's that name selects ("" for all), the
// running and starting ones and those kept after they stopped, settled to now, the newest first
// (then by ID), so that a first page of stopped tasks shows the latest failures.
func (c *cluster) tasksOf(name string, now time.Time) []located {
	var out []located
	for _, svcName := range core.SortedKeys(c.services) {
		s := c.services[svcName]
		if name != "" && svcName != name {
			continue
		}
		s.settle(now)
		for _, k := range slices.Concat(s.tasks, s.stopped) {
			out = append(out, located{service: s, task: k})
		}
	}
	slices.SortFunc(out, func(a, b located) int {
		if c := b.task.created.Compare(a.task.created); c != 0 {
			return c
		}
		return strings.Compare(a.task.id, b.task.id)
	})
	return out
}

// listTasks lists the ARNs of a cluster's tasks by pages of up to 100, filtered by service,
// desired status (RUNNING unless the request asks for another; none is ever PENDING), family,
// launch type and startedBy; a service the cluster does not have is ServiceNotFoundException.
// No task runs on a container instance or for a daemon, so those filters select none.
func (b *Backend) listTasks(call *core.Call, in *ecs.ListTasksInput) (*ecs.ListTasksOutput, error) {
	size, err := pageSize(in.MaxResults, 100)
	if err != nil {
		return nil, err
	}
	desired := string(in.DesiredStatus)
	if desired == "" {
		desired = taskRunning
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.ListTasksOutput, error) {
		name := serviceName(in.ServiceName)
		if _, ok := c.services[name]; in.ServiceName != nil && !ok {
			return nil, serviceNotFound
		}
		arns := []string{}
		for _, l := range c.tasksOf(name, call.Now) {
			k := l.task
			if in.ContainerInstance != nil || in.DaemonName != nil || k.desiredStatus(call.Now) != desired || (in.Family != nil && aws.ToString(k.taskDefinition.def.Family) != *in.Family) ||
				(in.LaunchType != "" && in.LaunchType != k.launchType) || (in.StartedBy != nil && k.deployment != *in.StartedBy) {
				continue
			}
			arns = append(arns, k.arn(c.arn))
		}
		page, next, err := paginate(arns, in.NextToken, size)
		if err != nil {
			return nil, err
		}
		return &ecs.ListTasksOutput{TaskArns: append([]string{}, page...), NextToken: next}, nil
	})
}

// describeTasks describes up to 100 of a cluster's tasks, by ARN or ID, with the tags they
// propagate when asked; each it cannot find is a MISSING failure.
func (b *Backend) describeTasks(call *core.Call, in *ecs.DescribeTasksInput) (*ecs.DescribeTasksOutput, error) {
	if n := len(in.Tasks); n < 1 || n > 100 {
		return nil, invalidParameter("Tasks cannot be empty and can have at most 100 elements.")
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.DescribeTasksOutput, error) {
		byID := map[string]located{}
		for _, l := range c.tasksOf("", call.Now) {
			byID[l.task.id] = l
		}
		out := &ecs.DescribeTasksOutput{Tasks: []types.Task{}, Failures: []types.Failure{}}
		for _, ref := range in.Tasks {
			m := taskRef.FindStringSubmatch(ref)
			l, ok := byID[ref]
			if m != nil {
				l, ok = byID[m[1]]
			}
			if !ok {
				arn := ref
				if !strings.HasPrefix(ref, "arn:") {
					arn = (&task{id: ref}).arn(c.arn)
				}
				out.Failures = append(out.Failures, types.Failure{Arn: aws.String(arn), Reason: aws.String("MISSING")})
				continue
			}
			d := l.service.describeTask(l.task, call.Now)
			if slices.Contains(in.Include, types.TaskFieldTags) {
				d.Tags = b.propagated(l.service, l.task)
			}
			out.Tasks = append(out.Tasks, d)
		}
		return out, nil
	})
}

// propagated returns the tags a service's task carries: the service's or its task definition's,
// as the service's propagateTags says, none otherwise.
func (b *Backend) propagated(s *service, k *task) []types.Tag {
	switch s.propagateTags {
	case types.PropagateTagsService:
		return core.TagList(b.tags, s.arn, core.NewTag[types.Tag])
	case types.PropagateTagsTaskDefinition:
		return core.TagList(b.tags, k.taskDefinition.arn(), core.NewTag[types.Tag])
	}
	return []types.Tag{}
}
