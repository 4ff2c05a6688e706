package ecs

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
)

// The task statuses a service's task goes through (Amazon ECS Developer Guide, Amazon ECS task
// lifecycle), and its desired statuses.
const (
	taskProvisioning = "PROVISIONING"
	taskPending      = "PENDING"
	taskActivating   = "ACTIVATING"
	taskRunning      = "RUNNING"
	taskStopped      = "STOPPED"
)

// startingStatuses are the statuses a task passes through before RUNNING, each for a third of its
// start-up time.
var startingStatuses = []string{taskProvisioning, taskPending, taskActivating}

// stoppedRetention is how long a STOPPED task stays listable, as AWS keeps stopped tasks for at
// least an hour; maxStopped bounds how many a service keeps.
const (
	stoppedRetention = time.Hour
	maxStopped       = 100
)

// task is one task a service's deployment started. Its status is derived from the clock: it
// starts at created, runs from running (unless it fails to start), and stops at stop when that
// is set. A task that fails to start is created with its stop set for when it fails, and
// stopping too: its desired status stays RUNNING until then.
type task struct {
	id, deployment string
	taskDefinition *taskDefinition
	launchType     types.LaunchType
	created        time.Time
	running        time.Time
	// stop is when the task stops (zero while its desired status is RUNNING); stopping is when
	// ECS decided so.
	stop, stopping time.Time
	stopCode       types.TaskStopCode
	stoppedReason  string
	// failing is the container that cannot be pulled, "" for a task that starts.
	failing string
}

// newTaskID returns a task ID: 32 hexadecimal digits.
func newTaskID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// stopAt makes the task stop at at, decided at decided, with code and reason; a task already
// stopping keeps its first decision.
func (k *task) stopAt(decided, at time.Time, code types.TaskStopCode, reason string) {
	if !k.stop.IsZero() {
		return
	}
	k.stopping, k.stop, k.stopCode, k.stoppedReason = decided, at, code, reason
}

// status returns the task's last status at now.
func (k *task) status(now time.Time) string {
	switch {
	case !k.stop.IsZero() && !now.Before(k.stop):
		return taskStopped
	case k.failing == "" && !now.Before(k.running):
		return taskRunning
	}
	third := k.running.Sub(k.created) / 3
	if third <= 0 {
		return taskPending
	}
	i := min(int(now.Sub(k.created)/third), len(startingStatuses)-1)
	if k.failing != "" {
		i = min(i, 1)
	}
	return startingStatuses[i]
}

// desiredRunning reports whether the task's desired status is still RUNNING at at: ECS has not
// decided by then to stop it (a task that fails to start is decided so when it fails).
func (k *task) desiredRunning(at time.Time) bool { return k.stop.IsZero() || k.stopping.After(at) }

// desiredStatus returns the task's desired status at now: RUNNING, or STOPPED once ECS has
// decided to stop it.
func (k *task) desiredStatus(now time.Time) string {
	if k.desiredRunning(now) {
		return taskRunning
	}
	return taskStopped
}

// arn returns the task's ARN in the cluster of clusterARN: task/<cluster>/<id>.
func (k *task) arn(clusterARN string) string {
	prefix, cluster := splitClusterARN(clusterARN)
	return prefix + "task/" + cluster + "/" + k.id
}

// splitClusterARN returns the part of a cluster ARN before "cluster/" and the cluster's name.
func splitClusterARN(clusterARN string) (prefix, name string) {
	name = clusterName(&clusterARN)
	return strings.TrimSuffix(clusterARN, "cluster/"+name), name
}

// containerID returns the stable ID of a task's container, in the form of a UUID.
func containerID(taskID, name string) string {
	b := sha256.Sum256([]byte(taskID + "/" + name))
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// describeTask returns the task of service s as DescribeTasks answers it at now.
func (s *service) describeTask(k *task, now time.Time) types.Task {
	status := k.status(now)
	arn := k.arn(s.clusterARN)
	out := types.Task{TaskArn: aws.String(arn), ClusterArn: aws.String(s.clusterARN), TaskDefinitionArn: aws.String(k.taskDefinition.arn()),
		LastStatus: aws.String(status), DesiredStatus: aws.String(k.desiredStatus(now)), LaunchType: k.launchType,
		Group: aws.String("service:" + s.name), StartedBy: aws.String(k.deployment), CreatedAt: aws.Time(k.created),
		Cpu: k.taskDefinition.def.Cpu, Memory: k.taskDefinition.def.Memory, EnableExecuteCommand: s.executeCommand,
		Version: int64(len(startingStatuses) + 1), HealthStatus: types.HealthStatusUnknown, Connectivity: types.ConnectivityConnected}
	if k.launchType == types.LaunchTypeFargate {
		out.PlatformVersion, out.PlatformFamily = aws.String(fargatePlatform), aws.String("Linux")
	}
	if status == taskRunning || (status == taskStopped && k.failing == "" && !k.stop.Before(k.running)) {
		out.StartedAt, out.PullStartedAt, out.PullStoppedAt = aws.Time(k.running), aws.Time(k.created), aws.Time(k.running)
	}
	decided := !k.desiredRunning(now)
	if decided {
		out.StoppingAt, out.StopCode, out.StoppedReason = aws.Time(k.stopping), k.stopCode, aws.String(k.stoppedReason)
	}
	if status == taskStopped {
		out.StoppedAt, out.ExecutionStoppedAt, out.Connectivity = aws.Time(k.stop), aws.Time(k.stop), ""
	}
	for _, c := range k.taskDefinition.def.ContainerDefinitions {
		name := aws.ToString(c.Name)
		container := types.Container{Name: c.Name, Image: c.Image, TaskArn: aws.String(arn), LastStatus: aws.String(containerStatus(status)),
			ContainerArn: aws.String(s.containerARN(k.id, name)), HealthStatus: types.HealthStatusUnknown}
		if decided && name == k.failing {
			container.Reason = aws.String(k.stoppedReason)
		}
		out.Containers = append(out.Containers, container)
	}
	return out
}

// containerStatus returns the status of a container of a task of status: PENDING until the task
// runs, then as the task.
func containerStatus(status string) string {
	if status == taskRunning || status == taskStopped {
		return status
	}
	return taskPending
}

// containerARN returns the ARN of a task's container: container/<cluster>/<task>/<uuid>.
func (s *service) containerARN(taskID, name string) string {
	prefix, cluster := splitClusterARN(s.clusterARN)
	return prefix + "container/" + cluster + "/" + taskID + "/" + containerID(taskID, name)
}
