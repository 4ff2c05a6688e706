package kubetest

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// PolicyCheck is what a family's test gives RunPolicyCheck for one of its kinds.
type PolicyCheck[O shared.Managed] struct {
	// New returns a new object of the kind, named name, in the test's namespace, that becomes
	// Ready on its own (its provider and references exist). Called twice, with two names, it
	// must describe the same AWS resource (the second object observes the first's).
	New func(name string) O
	// Outputs are the keys the object's outputs must hold, each with a value.
	Outputs []string
	// Drift changes the AWS resource outside the operator, in the field DriftField names.
	Drift      func(ctx context.Context, o O) error
	DriftField string
	// Drifted reports whether the AWS resource still holds the change Drift made.
	Drifted func(ctx context.Context, o O) (bool, error)
	// Exists reports whether the AWS resource exists.
	Exists func(ctx context.Context, o O) (bool, error)
}

// RunPolicyCheck checks, for one kind against a control plane and the emulator, the spec
// fields every kind shares: writeOutputsTo (a ConfigMap owned by the object with the declared
// outputs), driftPolicy Report (a change made in AWS is listed in status.drift with a Drifted
// condition, and left in place), then Enforce (the change is reverted and Drifted turns
// False), and managementPolicy ObserveOnly (a second object adopts the resource by its
// identifier, becomes Ready with the same outputs, and its deletion leaves the resource in
// AWS). It ends by deleting the managed object and checking that the resource is gone.
func RunPolicyCheck[O shared.Managed](t *testing.T, c client.Client, check PolicyCheck[O]) {
	t.Helper()
	ctx := context.Background()
	o := check.New("policy")
	o.GetManagedSpec().DriftPolicy = shared.DriftPolicyReport
	o.GetManagedSpec().WriteOutputsTo = &shared.OutputsTarget{Kind: "ConfigMap", Name: o.GetName() + "-outputs"}
	Create(t, c, o)
	o = WaitReady(t, c, o)
	outputs := configMapData(t, c, o.GetNamespace(), o.GetName()+"-outputs")
	for _, k := range check.Outputs {
		if outputs[k] == "" {
			t.Errorf("outputs lack %s: %v", k, outputs)
		}
	}
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName() + "-outputs"}, cm); err == nil && !metav1.IsControlledBy(cm, o) {
		t.Errorf("the outputs ConfigMap is not owned by %s: %v", o.GetName(), cm.OwnerReferences)
	}

	if err := check.Drift(ctx, o); err != nil {
		t.Fatalf("change the AWS resource outside the operator: %v", err)
	}
	ResyncUntil(t, c, o, "drift reported", func() bool {
		if err := c.Get(ctx, client.ObjectKeyFromObject(o), o); err != nil {
			return false
		}
		return condIs(o, condition.TypeDrifted, metav1.ConditionTrue, condition.ReasonDriftReported) && driftNames(o, check.DriftField)
	})
	// A pass that changes nothing in the status writes nothing, not even lastSyncTime, so the
	// passes after the one that reported the drift cannot be waited for: the object is resynced
	// for two seconds, in which a pass that restored the spec would have done so.
	for range 4 {
		Resync(t, c, o)
		time.Sleep(500 * time.Millisecond)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(o), o); err != nil {
		t.Fatalf("get %s: %v", o.GetName(), err)
	}
	if !condIs(o, condition.TypeDrifted, metav1.ConditionTrue, condition.ReasonDriftReported) || !driftNames(o, check.DriftField) {
		t.Errorf("the drift is no longer reported: drift %v, %v", o.GetManagedStatus().Drift, ConditionTexts(o.GetManagedStatus().Conditions))
	}
	if still, err := check.Drifted(ctx, o); err != nil || !still {
		t.Errorf("driftPolicy Report restored the spec (still drifted: %v, %v)", still, err)
	}
	if !o.GetManagedStatus().Ready {
		t.Errorf("a drifted resource should stay Ready: %v", ConditionTexts(o.GetManagedStatus().Conditions))
	}

	Update(t, c, o, func(o O) { o.GetManagedSpec().DriftPolicy = shared.DriftPolicyEnforce })
	WaitFor(t, c, o, Timeout, "drift restored", func(o O) bool {
		return len(o.GetManagedStatus().Drift) == 0 && !condIs(o, condition.TypeDrifted, metav1.ConditionTrue, condition.ReasonDriftReported) &&
			meta.FindStatusCondition(o.GetManagedStatus().Conditions, condition.TypeDrifted) != nil && o.GetManagedStatus().Ready
	})
	if still, err := check.Drifted(ctx, o); err != nil || still {
		t.Errorf("driftPolicy Enforce did not restore the spec (still drifted: %v, %v)", still, err)
	}

	observer := check.New("policy-observer")
	observer.GetManagedSpec().ManagementPolicy = shared.ManagementPolicyObserveOnly
	observer.GetManagedSpec().WriteOutputsTo = &shared.OutputsTarget{Kind: "ConfigMap", Name: observer.GetName() + "-outputs"}
	annotations := observer.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[shared.AnnotationExternalName] = o.GetAnnotations()[shared.AnnotationExternalName]
	observer.SetAnnotations(annotations)
	Create(t, c, observer)
	observer = WaitCondition(t, c, observer, condition.TypeReady, "True", condition.ReasonObserved)
	if len(observer.GetFinalizers()) != 0 || len(observer.GetManagedStatus().Drift) != 0 {
		t.Errorf("an observer of an unchanged resource has finalizers %v and drift %v", observer.GetFinalizers(), observer.GetManagedStatus().Drift)
	}
	if got := configMapData(t, c, observer.GetNamespace(), observer.GetName()+"-outputs"); !maps.Equal(got, outputs) {
		t.Errorf("the observer's outputs %v differ from the owner's %v", got, outputs)
	}
	Delete(t, c, observer)
	if ok, err := check.Exists(ctx, o); err != nil || !ok {
		t.Fatalf("deleting the observer touched the AWS resource (exists: %v, %v)", ok, err)
	}

	Delete(t, c, o)
	if ok, err := check.Exists(ctx, o); err != nil || ok {
		t.Errorf("the managed object's deletion left the AWS resource (exists: %v, %v)", ok, err)
	}
}

// Found is what a PolicyCheck's Exists returns for the error of a call that reads the AWS
// resource: false when AWS says it is not found, the error when it is another, true otherwise.
func Found(err error) (bool, error) {
	if awserr.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// configMapData returns the data of ConfigMap name in ns, failing the test when it is missing.
func configMapData(t *testing.T, c client.Client, ns, name string) map[string]string {
	t.Helper()
	cm := &corev1.ConfigMap{}
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, cm); err != nil {
		t.Fatalf("outputs ConfigMap %s: %v", name, err)
	}
	return cm.Data
}

// condIs reports whether o's condition typ has status and reason.
func condIs(o shared.Managed, typ string, status metav1.ConditionStatus, reason string) bool {
	c := meta.FindStatusCondition(o.GetManagedStatus().Conditions, typ)
	return c != nil && c.Status == status && c.Reason == reason
}

// driftNames reports whether o's status.drift names field.
func driftNames(o shared.Managed, field string) bool {
	return slices.ContainsFunc(o.GetManagedStatus().Drift, func(d shared.DriftedField) bool { return d.Field == field })
}
