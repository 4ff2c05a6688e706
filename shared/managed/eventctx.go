package managed

import (
	"context"
	"fmt"
)

// eventSinkKey keys the event sink of the object being reconciled in a context.
type eventSinkKey struct{}

// EventSink emits an event on the object being reconciled.
type EventSink func(typ, reason, action, message string)

// WithEventSink returns ctx carrying sink, so that drivers can report on the object being
// reconciled without holding an event recorder; the engine calls it for every pass.
func WithEventSink(ctx context.Context, sink EventSink) context.Context {
	return context.WithValue(ctx, eventSinkKey{}, sink)
}

// Warn emits a Warning event with reason on the object whose reconcile ctx belongs to, for
// what a driver notices and cannot fix by itself (several AWS resources that carry one
// object's ownership tags, for example). Outside a reconcile it does nothing. The message must
// not hold secret values.
func Warn(ctx context.Context, reason, format string, args ...any) {
	if sink, ok := ctx.Value(eventSinkKey{}).(EventSink); ok {
		sink("Warning", reason, "Observe", fmt.Sprintf(format, args...))
	}
}
