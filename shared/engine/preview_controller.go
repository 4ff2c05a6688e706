package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// PreviewTTL is how long a Preview is kept after its creation: infractl plan deletes the ones
// it creates, and the operators delete those left behind after it.
const PreviewTTL = time.Hour

// previewer plans the objects of one kind for Previews.
type previewer interface {
	preview(ctx context.Context, ns string, manifest *unstructured.Unstructured) (v1alpha1.PreviewResult, error)
	pruned(ctx context.Context, ns string, keep map[string]bool) ([]v1alpha1.PreviewResult, error)
}

// familyKind is a kind registered for Previews, with its family.
type familyKind struct {
	family string
	kind   string
	plan   previewer
}

// Previews collects the kinds an operator plans for Previews; Setup registers each kind's
// reconciler, and SetupPreviews starts the controller that answers Previews with them.
type Previews struct {
	mu    sync.Mutex
	kinds []familyKind
}

// register adds the kind named kind, of family, planned by plan.
func (p *Previews) register(family, kind string, plan previewer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kinds = append(p.kinds, familyKind{family: family, kind: kind, plan: plan})
}

// registered returns the registered kinds by name, and the families, sorted.
func (p *Previews) registered() (map[string]familyKind, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	byName := make(map[string]familyKind, len(p.kinds))
	var families []string
	for _, k := range p.kinds {
		byName[k.kind] = k
		if !slices.Contains(families, k.family) {
			families = append(families, k.family)
		}
	}
	slices.Sort(families)
	return byName, families
}

// SetupPreviews registers with mgr the controller that answers Previews for the kinds
// registered in previews: it plans each object of a registered kind, writes the results of
// its families into the Preview's status (next to other operators' results), and deletes a
// Preview PreviewTTL after its creation.
func SetupPreviews(mgr ctrl.Manager, previews *Previews) error {
	r := &previewReconciler{client: mgr.GetClient(), reader: mgr.GetAPIReader(), previews: previews, now: time.Now}
	return ctrl.NewControllerManagedBy(mgr).
		Named("preview").
		For(&v1alpha1.Preview{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WithOptions(controller.Options{MaxConcurrentReconciles: 2}).
		Complete(r)
}

// previewReconciler answers Previews.
type previewReconciler struct {
	client   client.Client
	reader   client.Reader
	previews *Previews
	now      func() time.Time
}

// Reconcile answers one Preview, once per generation of its spec.
func (r *previewReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pv := &v1alpha1.Preview{}
	if err := r.client.Get(ctx, req.NamespacedName, pv); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	left := PreviewTTL - r.now().Sub(pv.CreationTimestamp.Time)
	if left <= 0 {
		if err := r.client.Delete(ctx, pv); err != nil && !apierrors.IsNotFound(err) {
			return ctrl.Result{}, fmt.Errorf("delete the expired Preview %s: %w", req.NamespacedName, err)
		}
		return ctrl.Result{}, nil
	}
	kinds, families := r.previews.registered()
	if answered(pv, families) {
		return ctrl.Result{RequeueAfter: left}, nil
	}
	results, err := r.plan(ctx, pv, kinds)
	if errors.Is(err, errPreviewBusy) {
		return ctrl.Result{RequeueAfter: firstPoll}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.record(ctx, req, pv.Generation, families, results); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: left}, nil
}

// answered reports whether every one of families answered pv's current spec.
func answered(pv *v1alpha1.Preview, families []string) bool {
	if pv.Status.ObservedGeneration != pv.Generation {
		return false
	}
	for _, f := range families {
		if !slices.Contains(pv.Status.Families, f) {
			return false
		}
	}
	return true
}

// previewWorkers is how many objects of one Preview are planned at once: a Preview of many
// objects is answered several times faster than one by one, and still leaves the AWS API and
// the kinds' worker slots to the reconciles.
const previewWorkers = 4

// plan plans each object of pv of a registered kind, previewWorkers at a time, and, with
// spec.prune, lists the objects of those kinds that pv does not contain.
func (r *previewReconciler) plan(ctx context.Context, pv *v1alpha1.Preview, kinds map[string]familyKind) ([]v1alpha1.PreviewResult, error) {
	type job struct {
		kind     familyKind
		manifest *unstructured.Unstructured
	}
	var jobs []job
	keep := map[string]map[string]bool{}
	for _, raw := range pv.Spec.Objects {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(raw.Raw); err != nil {
			// Not an object the API server would take: no operator plans it, and infractl
			// reports it unanswered.
			continue
		}
		k, ok := kinds[u.GetKind()]
		if !ok || u.GroupVersionKind().Group != v1alpha1.Group {
			continue
		}
		if keep[k.kind] == nil {
			keep[k.kind] = map[string]bool{}
		}
		keep[k.kind][u.GetName()] = true
		jobs = append(jobs, job{kind: k, manifest: u})
	}
	out := make([]v1alpha1.PreviewResult, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, previewWorkers)
	for i, j := range jobs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			out[i], errs[i] = j.kind.plan.preview(ctx, pv.Namespace, j.manifest)
			out[i].Family = j.kind.family
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if !pv.Spec.Prune {
		return out, nil
	}
	for _, k := range kinds {
		gone, err := k.plan.pruned(ctx, pv.Namespace, keep[k.kind])
		if err != nil {
			return nil, err
		}
		for i := range gone {
			gone[i].Family = k.family
		}
		out = append(out, gone...)
	}
	return out, nil
}

// record writes results, the answer of families for generation, into the Preview's status,
// replacing what those families answered before and keeping other families' answers; the
// answers of an older generation are dropped.
func (r *previewReconciler) record(ctx context.Context, req ctrl.Request, generation int64, families []string, results []v1alpha1.PreviewResult) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pv := &v1alpha1.Preview{}
		if err := r.reader.Get(ctx, req.NamespacedName, pv); err != nil {
			return err
		}
		if pv.Generation != generation {
			// The spec changed while it was planned: the new generation is planned next.
			return nil
		}
		st := &pv.Status
		if st.ObservedGeneration != generation {
			*st = v1alpha1.PreviewStatus{ObservedGeneration: generation}
		}
		st.Results = slices.DeleteFunc(st.Results, func(res v1alpha1.PreviewResult) bool { return slices.Contains(families, res.Family) })
		st.Results = append(st.Results, results...)
		slices.SortStableFunc(st.Results, func(a, b v1alpha1.PreviewResult) int {
			return cmp.Or(cmp.Compare(a.Family, b.Family), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
		})
		for _, f := range families {
			if !slices.Contains(st.Families, f) {
				st.Families = append(st.Families, f)
			}
		}
		slices.Sort(st.Families)
		return r.client.Status().Update(ctx, pv)
	})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("write the results of Preview %s: %w", req.NamespacedName, err)
	}
	return nil
}
