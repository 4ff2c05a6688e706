package core

import "time"

// Step is one timed stage of a resource's lifecycle: the resource is in Status until Until.
type Step[S comparable] struct {
	Status S
	Until  time.Time
}

// Lifecycle is the status of a resource that changes on the simulation clock (creating ->
// available, modifying -> available, deleting -> gone): a queue of timed steps, and the status
// the resource rests in once they have all ended. Settle moves it on to a time; Status answers
// the status it was last settled to. It is a value: a copy of a resource copies its lifecycle.
type Lifecycle[S comparable] struct {
	rest  S
	steps []Step[S]
}

// NewLifecycle returns a lifecycle resting in rest, with no step to go through.
func NewLifecycle[S comparable](rest S) Lifecycle[S] {
	return Lifecycle[S]{rest: rest}
}

// Start replaces the steps still to go with one step of status that lasts d from from, and
// returns the lifecycle so that Then can add more.
func (l *Lifecycle[S]) Start(status S, from time.Time, d time.Duration) *Lifecycle[S] {
	l.steps = []Step[S]{{Status: status, Until: from.Add(d)}}
	return l
}

// Then adds a step of status that lasts d from the end of the last step.
func (l *Lifecycle[S]) Then(status S, d time.Duration) *Lifecycle[S] {
	l.steps = append(l.steps, Step[S]{Status: status, Until: l.steps[len(l.steps)-1].Until.Add(d)})
	return l
}

// Settle ends, in order, every step whose time has come by now, telling ended (when not nil)
// of each, and returns the status then.
func (l *Lifecycle[S]) Settle(now time.Time, ended func(Step[S])) S {
	for len(l.steps) > 0 && !now.Before(l.steps[0].Until) {
		s := l.steps[0]
		l.steps = l.steps[1:]
		if ended != nil {
			ended(s)
		}
	}
	return l.Status()
}

// Status returns the status of the step in progress when the lifecycle was last settled, or
// the resting status when none is.
func (l *Lifecycle[S]) Status() S {
	if len(l.steps) > 0 {
		return l.steps[0].Status
	}
	return l.rest
}

// Busy reports whether a step was in progress when the lifecycle was last settled.
func (l *Lifecycle[S]) Busy() bool { return len(l.steps) > 0 }

// Ready returns the status at now of a resource that is pending (creating, in progress) until
// at and ready from then: the lifecycle of one step that needs no state of its own.
func Ready[S any](now, at time.Time, pending, ready S) S {
	if now.Before(at) {
		return pending
	}
	return ready
}
