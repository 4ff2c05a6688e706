package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// FieldOwner is the field manager of the server-side dry runs.
const FieldOwner = "infractl-plan"

// Defaults of Options.
const (
	DefaultTimeout  = 2 * time.Minute
	DefaultInterval = 200 * time.Millisecond
)

// deleteTimeout bounds the deletion of the Preview, which runs even when the plan's context
// is done.
const deleteTimeout = 15 * time.Second

// Options say what to plan.
type Options struct {
	// Namespace is the namespace planned: objects without a namespace are planned in it, and
	// an infra-operator object of another namespace is an error.
	Namespace string
	// Objects are the manifests, as Read returns them; objects that are not managed
	// infra-operator kinds are only listed in the report as not planned.
	Objects []*unstructured.Unstructured
	// Prune asks for a Delete entry for every object of the namespace, of a kind an
	// answering family manages, that Objects lacks.
	Prune bool
	// Families maps every managed kind the cluster serves to its family (KindFamilies). The
	// plan waits for the families of the objects' kinds, and with Prune for all of them; an
	// object of a kind it lacks is planned only if some operator answers for it in time.
	Families map[string]string
	// Timeout bounds the wait for the operators' answers (DefaultTimeout when zero).
	Timeout time.Duration
	// Interval is how often the Preview is read while waiting (DefaultInterval when zero).
	Interval time.Duration
}

// Run plans opts.Objects: it dry-runs each managed object with server-side apply, sends the
// results in a Preview, waits for the operators' answers and deletes the Preview. An object
// the API server refuses is Refused (Invalid) without an operator; one no operator answers
// before the timeout is NoAnswer. Run returns an error only when the plan itself cannot be
// made (an object of another namespace, the cluster refusing the Preview, ctx done).
func Run(ctx context.Context, c client.Client, opts Options) (*Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	r := &Report{Namespace: opts.Namespace, Prune: opts.Prune, Objects: []Object{}}
	planned, err := split(r, opts)
	if err != nil {
		return nil, err
	}
	var sent []*unstructured.Unstructured
	for _, u := range planned {
		o, err := dryRun(ctx, c, u, opts.Families)
		if err != nil {
			return nil, err
		}
		if o != nil {
			r.Objects = append(r.Objects, *o)
			continue
		}
		sent = append(sent, u)
		r.Objects = append(r.Objects, Object{Kind: u.GetKind(), Name: u.GetName(), Family: opts.Families[u.GetKind()]})
	}
	if len(sent) > 0 || opts.Prune {
		if err := preview(ctx, c, r, sent, opts); err != nil {
			return nil, err
		}
	}
	r.Summary = r.count()
	return r, nil
}

// split checks the namespaces and names of opts.Objects, fills in the missing namespaces and
// returns the managed objects; the others go to r.NotPlanned.
func split(r *Report, opts Options) ([]*unstructured.Unstructured, error) {
	var planned []*unstructured.Unstructured
	seen := map[string]bool{}
	for _, u := range opts.Objects {
		gv, err := schema.ParseGroupVersion(u.GetAPIVersion())
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", u.GetKind(), u.GetName(), err)
		}
		if gv.Group != v1alpha1.Group || !Managed(u.GetKind()) {
			r.NotPlanned = append(r.NotPlanned, Ref{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Name: u.GetName(), Namespace: u.GetNamespace()})
			continue
		}
		if u.GetName() == "" {
			return nil, fmt.Errorf("a %s has no metadata.name (generateName cannot be planned)", u.GetKind())
		}
		if ns := u.GetNamespace(); ns != "" && ns != opts.Namespace {
			return nil, fmt.Errorf("%s %s is in namespace %s, not %s: plan one namespace at a time (-n)", u.GetKind(), u.GetName(), ns, opts.Namespace)
		}
		key := u.GetKind() + "/" + u.GetName()
		if seen[key] {
			return nil, fmt.Errorf("%s %s is in the manifests twice", u.GetKind(), u.GetName())
		}
		seen[key] = true
		u = u.DeepCopy()
		u.SetNamespace(opts.Namespace)
		planned = append(planned, u)
	}
	return planned, nil
}

// dryRun replaces u with the object the API server would store when applying it, reduced to
// what the operators plan (apiVersion, kind, name, namespace, labels, annotations, spec). When
// the API server refuses the object it returns the Refused entry instead.
func dryRun(ctx context.Context, c client.Client, u *unstructured.Unstructured, families map[string]string) (*Object, error) {
	u.SetResourceVersion("")
	u.SetManagedFields(nil)
	u.SetUID("")
	delete(u.Object, "status")
	kind, name := u.GetKind(), u.GetName()
	err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.DryRunAll, client.FieldOwner(FieldOwner), client.ForceOwnership)
	switch {
	case meta.IsNoMatchError(err):
		return &Object{Kind: kind, Name: name, Action: Refused, Reason: ReasonNotInstalled,
			Message: fmt.Sprintf("the cluster serves no kind %s (%s): install its CRD", kind, u.GetAPIVersion())}, nil
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err):
		return &Object{Kind: kind, Name: name, Family: families[kind], Action: Refused, Reason: ReasonInvalid, Message: apiMessage(err)}, nil
	case err != nil:
		return nil, fmt.Errorf("dry-run %s %s: %w", kind, name, err)
	}
	reduced := map[string]any{"apiVersion": u.GetAPIVersion(), "kind": kind}
	md := map[string]any{"name": name, "namespace": u.GetNamespace()}
	if l := u.GetLabels(); len(l) > 0 {
		md["labels"] = l
	}
	if a := u.GetAnnotations(); len(a) > 0 {
		md["annotations"] = a
	}
	reduced["metadata"] = md
	if spec, ok := u.Object["spec"]; ok {
		reduced["spec"] = spec
	}
	u.Object = reduced
	return nil, nil
}

// apiMessage returns the API server's message of err.
func apiMessage(err error) string {
	var s apierrors.APIStatus
	if errors.As(err, &s) && s.Status().Message != "" {
		return s.Status().Message
	}
	return err.Error()
}

// preview creates the Preview of sent, waits for the answers, fills them into r and deletes
// the Preview, whatever happened.
func preview(ctx context.Context, c client.Client, r *Report, sent []*unstructured.Unstructured, opts Options) (err error) {
	p := &v1alpha1.Preview{Spec: v1alpha1.PreviewSpec{Objects: []runtime.RawExtension{}, Prune: opts.Prune}}
	p.SetGroupVersionKind(v1alpha1.GroupVersion.WithKind("Preview"))
	p.GenerateName = "plan-"
	p.Namespace = opts.Namespace
	p.Labels = map[string]string{"app.kubernetes.io/managed-by": "infractl"}
	for _, u := range sent {
		raw, err := json.Marshal(u.Object)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", u.GetKind(), u.GetName(), err)
		}
		p.Spec.Objects = append(p.Spec.Objects, runtime.RawExtension{Raw: raw})
	}
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(p)
	if err != nil {
		return fmt.Errorf("encode the Preview: %w", err)
	}
	u := &unstructured.Unstructured{Object: obj}
	if err := c.Create(ctx, u); err != nil {
		if meta.IsNoMatchError(err) {
			return fmt.Errorf("the cluster serves no Preview kind: upgrade infra-operator's CRDs (`infractl install`): %w", err)
		}
		return fmt.Errorf("create a Preview in namespace %s: %w", opts.Namespace, err)
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deleteTimeout)
		defer cancel()
		if derr := c.Delete(dctx, u); derr != nil && !apierrors.IsNotFound(derr) {
			r.Warnings = append(r.Warnings, fmt.Sprintf("could not delete Preview %s (the operators delete it within an hour): %v", u.GetName(), derr))
		}
	}()
	expected := expectedFamilies(sent, opts)
	status, err := wait(ctx, c, client.ObjectKeyFromObject(u), sent, expected, opts)
	if err != nil {
		return err
	}
	answer(r, status, expected)
	return nil
}

// expectedFamilies returns the families that must answer: those of the sent kinds, and with
// Prune every family the cluster has kinds of.
func expectedFamilies(sent []*unstructured.Unstructured, opts Options) []string {
	set := map[string]bool{}
	for _, u := range sent {
		if f := opts.Families[u.GetKind()]; f != "" {
			set[f] = true
		}
	}
	if opts.Prune {
		for _, f := range opts.Families {
			set[f] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// wait reads the Preview every opts.Interval until it answers every sent object and every
// expected family has answered, or until opts.Timeout; it returns the last status read.
func wait(ctx context.Context, c client.Client, key client.ObjectKey, sent []*unstructured.Unstructured, expected []string, opts Options) (v1alpha1.PreviewStatus, error) {
	deadline := time.Now().Add(opts.Timeout)
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	var status v1alpha1.PreviewStatus
	for {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(v1alpha1.GroupVersion.WithKind("Preview"))
		if err := c.Get(ctx, key, u); err != nil {
			if ctx.Err() != nil {
				return status, fmt.Errorf("wait for the operators' answers: %w", ctx.Err())
			}
			return status, fmt.Errorf("read Preview %s: %w", key.Name, err)
		}
		var p v1alpha1.Preview
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &p); err != nil {
			return status, fmt.Errorf("decode Preview %s: %w", key.Name, err)
		}
		status = p.Status
		if complete(p, sent, expected) || !time.Now().Before(deadline) {
			return status, nil
		}
		select {
		case <-ctx.Done():
			return status, fmt.Errorf("wait for the operators' answers: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// complete tells whether p answers the spec it holds: a result for every sent object, and an
// answer from every expected family.
func complete(p v1alpha1.Preview, sent []*unstructured.Unstructured, expected []string) bool {
	if p.Status.ObservedGeneration < p.Generation {
		return false
	}
	for _, f := range expected {
		if !slices.Contains(p.Status.Families, f) {
			return false
		}
	}
	answered := map[string]bool{}
	for _, res := range p.Status.Results {
		answered[res.Kind+"/"+res.Name] = true
	}
	for _, u := range sent {
		if !answered[u.GetKind()+"/"+u.GetName()] {
			return false
		}
	}
	return true
}

// answer fills the operators' answers into r: each sent object's entry (NoAnswer when it has
// none), the Delete entries of pruning, and the families that answered or did not.
func answer(r *Report, status v1alpha1.PreviewStatus, expected []string) {
	results := map[string]v1alpha1.PreviewResult{}
	for _, res := range status.Results {
		results[res.Kind+"/"+res.Name] = res
	}
	for i, o := range r.Objects {
		if o.Action != "" {
			continue // infractl's own result; never sent
		}
		key := o.Kind + "/" + o.Name
		res, ok := results[key]
		delete(results, key)
		if !ok {
			o.Action, o.Reason = NoAnswer, ReasonNoAnswer
			if o.Family != "" {
				o.Message = fmt.Sprintf("no answer: is the %s operator running?", o.Family)
			} else {
				o.Message = fmt.Sprintf("no answer: no operator family declares kind %s", o.Kind)
			}
			r.Objects[i] = o
			continue
		}
		r.Objects[i] = objectOf(res)
	}
	var deletes []Object
	for _, res := range results {
		deletes = append(deletes, objectOf(res))
	}
	sort.Slice(deletes, func(i, j int) bool {
		if deletes[i].Kind != deletes[j].Kind {
			return deletes[i].Kind < deletes[j].Kind
		}
		return deletes[i].Name < deletes[j].Name
	})
	r.Objects = append(r.Objects, deletes...)
	r.Families = slices.Sorted(slices.Values(status.Families))
	for _, f := range expected {
		if !slices.Contains(status.Families, f) {
			r.MissingFamilies = append(r.MissingFamilies, f)
		}
	}
}

// objectOf returns the report entry of an operator's result.
func objectOf(res v1alpha1.PreviewResult) Object {
	o := Object{Kind: res.Kind, Name: res.Name, Family: res.Family, Action: Action(res.Action), Reason: res.Reason,
		Message: res.Message, ExternalName: res.ExternalName}
	for _, ch := range res.Changes {
		o.Changes = append(o.Changes, Change{Field: ch.Field, Current: ch.Current, Desired: ch.Desired})
	}
	return o
}
