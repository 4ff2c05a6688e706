package managed

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// cloud is an in-memory stand-in for an AWS service that holds widgets.
type cloud struct {
	mu     sync.Mutex
	items  map[string]*widgetState
	nextID int
	calls  map[string]int
	errs   map[string]error
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
	c    *cloud
	sess *provider.Session
}

func widgetKind(c *cloud, validate func(*testkind.Widget) error) Kind[*testkind.Widget, widgetState] {
	return Kind[*testkind.Widget, widgetState]{
		Name:    "Widget",
		New:     func() *testkind.Widget { return &testkind.Widget{} },
		NewList: func() client.ObjectList { return &testkind.WidgetList{} },
		Connect: func(s *provider.Session, _ client.Reader) Driver[*testkind.Widget, widgetState] {
			return &fakeDriver{c: c, sess: s}
		},
		Validate:          validate,
		ResolveReferences: resolveParent,
		References: func(w *testkind.Widget) []Ref {
			switch {
			case w.Spec.ParentRef != nil:
				return []Ref{{Kind: "Widget", Name: w.Spec.ParentRef.Name}}
			case w.Spec.ParentSelector != nil:
				return []Ref{{Kind: "Widget"}}
			}
			return nil
		},
		Referenced: []client.Object{&testkind.Widget{}},
	}
}

// parentTarget resolves references to Widgets to their AWS ids.
var parentTarget = ReferenceTarget[*testkind.Widget]{
	Kind:    "Widget",
	New:     func() *testkind.Widget { return &testkind.Widget{} },
	NewList: func() client.ObjectList { return &testkind.WidgetList{} },
	Value:   func(w *testkind.Widget) string { return w.Status.WidgetID },
}

// resolveParent fills spec.parentID from spec.parentRef or spec.parentSelector.
func resolveParent(ctx context.Context, c client.Reader, w *testkind.Widget) error {
	switch {
	case w.Spec.ParentRef != nil:
		id, err := parentTarget.Resolve(ctx, c, w, "spec.parentRef", *w.Spec.ParentRef)
		w.Spec.ParentID = id
		return err
	case w.Spec.ParentSelector != nil:
		ids, err := parentTarget.ResolveSelector(ctx, c, w, "spec.parentSelector", *w.Spec.ParentSelector)
		if err != nil {
			return err
		}
		w.Spec.ParentID = strings.Join(ids, ",")
	}
	return nil
}

// Sizes that make the fake driver misbehave.
const (
	// slowSize makes Observe wait until its context ends, as an endpoint that never answers.
	slowSize = 99
	// conflictSize is a size the cloud reports as a Conflict: it cannot be applied.
	conflictSize = 13
)

func (d *fakeDriver) Observe(ctx context.Context, o *testkind.Widget) (Observation[widgetState], error) {
	if o.Spec.Size == slowSize {
		<-ctx.Done()
		return Observation[widgetState]{}, fmt.Errorf("observe widget: %w", ctx.Err())
	}
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Observe"); err != nil {
		return Observation[widgetState]{}, err
	}
	id := ExternalName(o)
	if id == "" {
		for candidate, w := range d.c.items {
			if w.Tags[v1alpha1.TagOwnerUID] == string(o.UID) {
				id = candidate
				SetExternalName(o, id)
			}
		}
	}
	w, ok := d.c.items[id]
	if !ok {
		return Observation[widgetState]{}, nil
	}
	o.Status.WidgetID = id
	o.Status.ParentID = w.Parent
	if !w.Ready && w.PendingObserves > 0 {
		w.PendingObserves--
	} else if !w.Ready && w.PendingObserves == 0 {
		w.Ready = true
	}
	obs := Observation[widgetState]{Exists: true, Ready: w.Ready, Busy: w.Busy, State: w, UpToDate: true, Tags: maps.Clone(w.Tags)}
	if o.Spec.Size == conflictSize {
		obs.Conflict = Terminal(ReasonInvalidSpec, "widget %s cannot take size %d", id, conflictSize)
	}
	if w.Size != o.Spec.Size || w.Parent != o.Spec.ParentID {
		obs.UpToDate, obs.Diff = false, "size"
	}
	if !maps.Equal(w.Tags, DesiredTags(o, d.sess.DefaultTags())) {
		obs.UpToDate = false
	}
	if !w.Ready {
		obs.Message = "state is pending"
	}
	return obs, nil
}

func (d *fakeDriver) Create(_ context.Context, o *testkind.Widget) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Create"); err != nil {
		return err
	}
	d.c.nextID++
	id := fmt.Sprintf("w-%d", d.c.nextID)
	d.c.items[id] = &widgetState{Size: o.Spec.Size, Tags: DesiredTags(o, d.sess.DefaultTags()), PendingObserves: 1, Parent: o.Spec.ParentID}
	SetExternalName(o, id)
	return nil
}

func (d *fakeDriver) Update(_ context.Context, o *testkind.Widget, obs Observation[widgetState]) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Update"); err != nil {
		return err
	}
	w := d.c.items[ExternalName(o)]
	if !w.Stubborn {
		w.Size = o.Spec.Size
	}
	w.Parent = o.Spec.ParentID
	w.Tags = DesiredTags(o, d.sess.DefaultTags())
	return nil
}

func (d *fakeDriver) Delete(_ context.Context, o *testkind.Widget, _ Observation[widgetState]) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("Delete"); err != nil {
		return err
	}
	delete(d.c.items, ExternalName(o))
	return nil
}

func (d *fakeDriver) ReleaseOwnership(_ context.Context, o *testkind.Widget, _ Observation[widgetState]) error {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	if err := d.c.call("ReleaseOwnership"); err != nil {
		return err
	}
	for k := range d.c.items[ExternalName(o)].Tags {
		if IsOwnershipTag(k) {
			delete(d.c.items[ExternalName(o)].Tags, k)
		}
	}
	return nil
}
