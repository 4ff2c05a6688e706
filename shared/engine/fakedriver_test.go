package engine

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// cloud is an in-memory stand-in for an AWS service that holds widgets.
type cloud struct {
	mu     sync.Mutex
	items  map[string]*widgetState
	nextID int
	calls  map[string]int
	errs   map[string]error
	// lagging makes Observe see no widget, as AWS's eventual consistency may right after a
	// create.
	lagging bool
	// immediate makes created widgets available at once, as a bucket or a queue is.
	immediate bool
}

type widgetState struct {
	// Stubborn widgets ignore updates of their size, as AWS keeps some values in its own form.
	Stubborn bool
	Size     int32
	Tags     map[string]string
	Ready    bool
	// PendingObserves is how many more observations report the widget as still creating.
	PendingObserves int
	// Busy makes observations report that the widget accepts no change now.
	Busy bool
	// ReadyIn makes observations of a widget that is not ready say how soon it will be.
	ReadyIn time.Duration
	// Parent is the parent widget's id.
	Parent string
}

func newCloud() *cloud {
	return &cloud{items: map[string]*widgetState{}, calls: map[string]int{}, errs: map[string]error{}}
}

func (c *cloud) call(op string) error {
	c.calls[op]++
	return c.errs[op]
}

// fakeDriver manages widgets in a cloud, following the Driver contract.
type fakeDriver struct {
	c *cloud
}

func widgetKind(c *cloud, validate func(*testkind.Widget) error) managed.Kind[*testkind.Widget, widgetState] {
	return managed.Kind[*testkind.Widget, widgetState]{
		Name:    "Widget",
		New:     func() *testkind.Widget { return &testkind.Widget{} },
		NewList: func() client.ObjectList { return &testkind.WidgetList{} },
		Connect: func(s *provider.Session, _ client.Reader, _ *testkind.Widget) managed.Driver[*testkind.Widget, widgetState] {
			return &fakeDriver{c: c}
		},
		Validate:   validate,
		References: []managed.Ref[*testkind.Widget]{parentRef},
	}
}

// parentTarget is the Widget kind as a reference target.
var parentTarget = targets.Target{Kind: "Widget", Family: "test", ID: []string{"status", "widgetID"}}

// parentRef declares spec.parentRef and spec.parentSelector, which fill spec.parentID (the
// selected widgets' ids joined by commas).
var parentRef = managed.Ref[*testkind.Widget]{Target: parentTarget, Sites: func(w *testkind.Widget) []managed.Site {
	set := func(ids []string) { w.Spec.ParentID = strings.Join(ids, ",") }
	switch {
	case w.Spec.ParentRef != nil:
		return []managed.Site{{Field: "spec.parentRef", Name: w.Spec.ParentRef.Name, Set: set}}
	case w.Spec.ParentSelector != nil:
		return []managed.Site{{Field: "spec.parentSelector", Selector: w.Spec.ParentSelector, Set: set}}
	}
	return nil
}}

// Sizes that make the fake driver misbehave.
const (
	// slowSize makes Observe wait until its context ends, as an endpoint that never answers.
	slowSize = 99
	// conflictSize is a size the cloud reports as a Conflict: it cannot be applied.
	conflictSize = 13
)

func (d *fakeDriver) Observe(ctx context.Context, o *testkind.Widget, req managed.Request) (managed.Observation[widgetState], error) {
	if o.Spec.Size == slowSize {
		<-ctx.Done()
		return managed.Observation[widgetState]{}, fmt.Errorf("observe widget: %w", ctx.Err())
	}
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Observe"); err != nil {
		return managed.Observation[widgetState]{}, err
	}
	id := managed.ExternalName(o)
	if id == "" {
		for candidate, w := range d.c.items {
			if w.Tags[v1alpha1.TagOwnerUID] == string(o.UID) {
				id = candidate
				managed.SetExternalName(o, id)
			}
		}
	}
	w, ok := d.c.items[id]
	if !ok || d.c.lagging {
		return managed.Observation[widgetState]{}, nil
	}
	o.Status.WidgetID = id
	o.Status.ParentID = w.Parent
	if !w.Ready && w.PendingObserves > 0 {
		w.PendingObserves--
	} else if !w.Ready && w.PendingObserves == 0 {
		w.Ready = true
	}
	obs := managed.Observation[widgetState]{Exists: true, Ready: w.Ready, Busy: w.Busy, State: w, Tags: maps.Clone(w.Tags)}
	if !w.Ready {
		obs.ReadyIn = w.ReadyIn
	}
	if o.Spec.Size == conflictSize {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec, "widget %s cannot take size %d", id, conflictSize)
	}
	var fields []string
	if w.Size != o.Spec.Size || w.Parent != o.Spec.ParentID {
		fields = append(fields, "size")
	}
	if !maps.Equal(w.Tags, req.Tags) {
		fields = append(fields, "tags")
	}
	obs.Changes.AddFields(fields, func(context.Context) error { return d.update(o, req.Tags) })
	if len(obs.Changes) > 0 && w.Size != o.Spec.Size {
		// One call changes size and tags; the plan shows the size's values.
		obs.Changes[0].Values = map[string]managed.Values{"size": {Current: fmt.Sprint(w.Size), Desired: fmt.Sprint(o.Spec.Size)}}
	}
	if !w.Ready {
		obs.Message = "state is pending"
	}
	return obs, nil
}

func (d *fakeDriver) Create(_ context.Context, o *testkind.Widget, req managed.Request) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Create"); err != nil {
		return err
	}
	d.c.nextID++
	id := fmt.Sprintf("w-%d", d.c.nextID)
	d.c.items[id] = &widgetState{Size: o.Spec.Size, Tags: req.Tags, PendingObserves: 1, Parent: o.Spec.ParentID}
	if d.c.immediate {
		d.c.items[id].PendingObserves = 0
	}
	managed.SetExternalName(o, id)
	return nil
}

// update is the one call that changes a widget's size, parent and tags.
func (d *fakeDriver) update(o *testkind.Widget, tags map[string]string) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Update"); err != nil {
		return err
	}
	w := d.c.items[managed.ExternalName(o)]
	if !w.Stubborn {
		w.Size = o.Spec.Size
	}
	w.Parent = o.Spec.ParentID
	w.Tags = tags
	return nil
}

func (d *fakeDriver) Delete(_ context.Context, o *testkind.Widget, _ managed.Observation[widgetState]) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Delete"); err != nil {
		return err
	}
	delete(d.c.items, managed.ExternalName(o))
	return nil
}

func (d *fakeDriver) ReleaseOwnership(_ context.Context, o *testkind.Widget, _ managed.Observation[widgetState]) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("ReleaseOwnership"); err != nil {
		return err
	}
	for k := range d.c.items[managed.ExternalName(o)].Tags {
		if managed.IsOwnershipTag(k) {
			delete(d.c.items[managed.ExternalName(o)].Tags, k)
		}
	}
	return nil
}
