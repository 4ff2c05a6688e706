package ecs

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
)

// The stopCodes of a service's tasks: stopped by the service scheduler (scaling, a finished or
// failed deployment, a deleted service), or unable to start.
const (
	stopScheduler     = types.TaskStopCodeServiceSchedulerInitiated
	stopFailedToStart = types.TaskStopCodeTaskFailedToStart
)

// maxThrottle is the longest a failing deployment waits before starting its next task, once ECS
// throttles the launches of a service whose tasks keep failing to start.
const maxThrottle = 15 * time.Minute

// settle brings the service's tasks and deployments to now, handling in time order every task
// that stops and every deployment that completes by then, and starting the tasks that replace
// failed ones; it drops the stopped tasks AWS no longer keeps, and makes a DRAINING service
// without tasks INACTIVE.
func (s *service) settle(now time.Time) {
	for {
		at, ok := s.next(now)
		if !ok {
			break
		}
		s.step(at)
	}
	s.stopped = slices.DeleteFunc(s.stopped, func(k *task) bool { return now.Sub(k.stop) > stoppedRetention })
	if s.status == statusDraining && len(s.tasks) == 0 {
		s.status = statusInactive
	}
}

// next returns the time of the earliest event due by now: a task that stops, or the PRIMARY
// deployment's completion.
func (s *service) next(now time.Time) (time.Time, bool) {
	var at time.Time
	found := false
	consider := func(t time.Time) {
		if !t.After(now) && (!found || t.Before(at)) {
			at, found = t, true
		}
	}
	for _, k := range s.tasks {
		if !k.stop.IsZero() {
			consider(k.stop)
		}
	}
	if t, ok := s.completion(); ok {
		consider(t)
	}
	return at, found
}

// completion returns when the IN_PROGRESS PRIMARY deployment has its desired count of tasks
// running, or ok false while it cannot tell (tasks still to start, or failing).
func (s *service) completion() (time.Time, bool) {
	d := s.primary()
	if d.rollout != types.DeploymentRolloutStateInProgress || s.status != statusActive {
		return time.Time{}, false
	}
	if s.desired == 0 {
		return d.created, true
	}
	var running []time.Time
	for _, k := range s.tasks {
		if k.deployment == d.id && k.stop.IsZero() && k.failing == "" {
			running = append(running, k.running)
		}
	}
	if int32(len(running)) < s.desired {
		return time.Time{}, false
	}
	slices.SortFunc(running, time.Time.Compare)
	return running[s.desired-1], true
}

// step handles what happens at at: the tasks that stop then, the PRIMARY deployment's
// completion, and the tasks the PRIMARY deployment must start or stop to keep its desired count.
func (s *service) step(at time.Time) {
	var live []*task
	for _, k := range s.tasks {
		if k.stop.IsZero() || k.stop.After(at) {
			live = append(live, k)
			continue
		}
		s.stopped = append(s.stopped, k)
		if k.stopCode == stopFailedToStart {
			s.failedToStart(k, at)
		}
	}
	s.tasks = live
	if len(s.stopped) > maxStopped {
		s.stopped = slices.Delete(s.stopped, 0, len(s.stopped)-maxStopped)
	}
	if t, ok := s.completion(); ok && !t.After(at) {
		s.complete(at)
	}
	s.reconcile(at)
}

// failedToStart counts a task of a deployment that failed to start at at, and fails the
// deployment when its circuit breaker is on and the failures reach the threshold.
func (s *service) failedToStart(k *task, at time.Time) {
	d := s.deploymentOf(k.deployment)
	if d == nil {
		return
	}
	d.failed++
	d.updated = at
	breaker := s.config.DeploymentCircuitBreaker
	if d != s.primary() || d.rollout != types.DeploymentRolloutStateInProgress || breaker == nil || !breaker.Enable || d.failed < threshold(s.desired) {
		return
	}
	d.rollout, d.reason = types.DeploymentRolloutStateFailed, "ECS deployment circuit breaker: tasks failed to start."
	s.event(at, "deployment %s deployment failed: tasks failed to start.", d.id)
	s.stopTasks(at, at, d.id, "Deployment failed: tasks failed to start.")
	if breaker.Rollback && s.completed != nil {
		s.taskDefinition = s.completed.taskDefinition
		rollback := s.startDeployment(at, "ECS deployment circuit breaker: rolling back to deploymentId "+s.completed.id+".")
		s.event(at, "rolling back to deployment %s.", s.completed.id)
		s.reconcileDeployment(rollback, at)
	}
}

// complete ends the PRIMARY deployment's rollout at at: the tasks of the older deployments stop
// and those deployments go.
func (s *service) complete(at time.Time) {
	d := s.primary()
	d.rollout, d.reason, d.updated = types.DeploymentRolloutStateCompleted, "ECS deployment "+d.id+" completed.", at
	for _, old := range s.deployments[1:] {
		s.stopTasks(at, at, old.id, "Scaling activity initiated by (deployment "+d.id+")")
	}
	s.deployments = s.deployments[:1]
	s.completed = d
	s.event(at, "(deployment %s) deployment completed.", d.id)
	s.event(at, "has reached a steady state.")
}

// stopTasks stops, at stop, the tasks of deployment id whose desired status is still RUNNING
// (every deployment's for ""), as the service scheduler decided at decided with reason, and
// records the event.
func (s *service) stopTasks(decided, stop time.Time, id, reason string) {
	var stopped []*task
	for _, k := range s.tasks {
		if k.stop.IsZero() && (id == "" || k.deployment == id) {
			k.stopAt(decided, stop, stopScheduler, reason)
			stopped = append(stopped, k)
		}
	}
	if len(stopped) > 0 {
		s.event(decided, "has stopped %d running tasks: %s.", len(stopped), taskList(stopped))
	}
}

// reconcile starts or stops the PRIMARY deployment's tasks at at so that as many as the desired
// count keep a desired status of RUNNING.
func (s *service) reconcile(at time.Time) { s.reconcileDeployment(s.primary(), at) }

// reconcileDeployment starts or stops deployment d's tasks at at so that as many as the desired
// count keep a desired status of RUNNING: none for a service whose tasks cannot be placed or a
// deployment that failed. Tasks in excess, the newest first, stop after the service's transition.
func (s *service) reconcileDeployment(d *deployment, at time.Time) {
	if s.status != statusActive || !s.placeable() || d.rollout == types.DeploymentRolloutStateFailed {
		return
	}
	var mine []*task
	for _, k := range s.tasks {
		if k.deployment == d.id && k.desiredRunning(at) {
			mine = append(mine, k)
		}
	}
	if excess := int32(len(mine)) - s.desired; excess > 0 {
		for _, k := range mine[len(mine)-int(excess):] {
			k.stopAt(at, at.Add(s.transition), stopScheduler, "Scaling activity initiated by (deployment "+d.id+")")
		}
		s.event(at, "has stopped %d running tasks: %s.", excess, taskList(mine[len(mine)-int(excess):]))
		return
	}
	missing := s.desired - int32(len(mine))
	if missing <= 0 {
		return
	}
	var started []*task
	reason, container := pullFailure(s.images, d.taskDefinition)
	for range missing {
		k := &task{id: newTaskID(), deployment: d.id, taskDefinition: d.taskDefinition, launchType: s.taskLaunchType(), created: at, running: at.Add(s.transition)}
		if reason != "" {
			k.failing = container
			fails := k.running.Add(s.throttle(d))
			k.stopAt(fails, fails, stopFailedToStart, reason)
		}
		started = append(started, k)
	}
	s.tasks = append(s.tasks, started...)
	s.event(at, "has started %d tasks: %s.", len(started), taskList(started))
}

// throttle returns how long ECS holds back a new task of deployment d: nothing until as many of
// its tasks have failed to start as the circuit breaker's largest threshold, then a delay that
// doubles with every further round of failures, up to maxThrottle.
func (s *service) throttle(d *deployment) time.Duration {
	if d.failed < maxThreshold {
		return 0
	}
	rounds := min((d.failed-maxThreshold)/max(s.desired, 1), 10)
	return min(time.Second<<rounds, maxThrottle)
}

// taskLaunchType returns the launch type the service's tasks report: FARGATE for a Fargate
// launch type or capacity provider strategy, EC2 otherwise.
func (s *service) taskLaunchType() types.LaunchType {
	if s.kind() == fargate {
		return types.LaunchTypeFargate
	}
	return types.LaunchTypeEc2
}

// live returns how many of deployment id's tasks have not stopped.
func (s *service) live(id string) int32 {
	n := int32(0)
	for _, k := range s.tasks {
		if k.deployment == id {
			n++
		}
	}
	return n
}

// counts returns how many of deployment id's tasks (every deployment's for "") run and how many
// are starting at now.
func (s *service) counts(id string, now time.Time) (running, pending int32) {
	for _, k := range s.tasks {
		if id != "" && k.deployment != id {
			continue
		}
		switch k.status(now) {
		case taskRunning:
			running++
		case taskStopped:
		default:
			pending++
		}
	}
	return running, pending
}
