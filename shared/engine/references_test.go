package engine

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// gadget is a target kind of a family that is not installed.
var gadget = targets.Target{Kind: "Gadget", Family: "gadgets", ID: []string{"status", "gadgetID"}}

// TestForeignTargetsAreReadUnstructured checks that a target kind the scheme does not know
// (another family's) is read as an unstructured object, its identifier found by its path and
// its readiness by its Ready condition.
func TestForeignTargetsAreReadUnstructured(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := testkind.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if _, typed := newTarget(scheme, parentTarget, false).(*testkind.Widget); !typed {
		t.Errorf("a kind of the scheme is not read typed")
	}
	obj, ok := newTarget(scheme, gadget, false).(*unstructured.Unstructured)
	if !ok || obj.GetKind() != "Gadget" || obj.GetAPIVersion() != v1alpha1.GroupVersion.String() {
		t.Fatalf("a foreign kind is read as %T %v", obj, obj)
	}
	if list, ok := newTarget(scheme, gadget, true).(*unstructured.UnstructuredList); !ok || list.GetKind() != "GadgetList" {
		t.Errorf("a foreign kind's list is read as %T", list)
	}
	obj.SetName("g")
	if err := unstructured.SetNestedField(obj.Object, "gad-1", "status", "gadgetID"); err != nil {
		t.Fatal(err)
	}
	if _, err := usableID(gadget, obj, "spec.gadgetRef", ""); !isWaiting(err, condition.ReasonReferenceNotReady) {
		t.Errorf("a gadget without a Ready condition resolved: %v", err)
	}
	conds := []any{map[string]any{"type": condition.TypeReady, "status": string(metav1.ConditionTrue)}}
	if err := unstructured.SetNestedSlice(obj.Object, conds, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	if id, err := usableID(gadget, obj, "spec.gadgetRef", ""); err != nil || id != "gad-1" {
		t.Errorf("a Ready gadget resolved to %q, %v; want gad-1", id, err)
	}
	conds = []any{map[string]any{"type": condition.TypeReady, "status": string(metav1.ConditionFalse)},
		map[string]any{"type": condition.TypeStalled, "status": string(metav1.ConditionTrue), "reason": condition.ReasonInvalidSpec}}
	if err := unstructured.SetNestedSlice(obj.Object, conds, "status", "conditions"); err != nil {
		t.Fatal(err)
	}
	if _, err := usableID(gadget, obj, "spec.gadgetRef", ""); !isWaiting(err, condition.ReasonReferenceFailed) || !strings.Contains(err.Error(), condition.ReasonInvalidSpec) {
		t.Errorf("a failed gadget gave %v; want ReferenceFailed naming its reason", err)
	}
}

// TestElementReferences checks that a reference to one element of a target's list (a target
// group of a load balancer, by name) resolves to that element's identifier, and waits, naming
// the element, while the Ready target lists no such element.
func TestElementReferences(t *testing.T) {
	parts := targets.Target{Kind: "Gadget", Family: "other", ID: []string{"status", "parts"}, Element: &targets.Element{Key: "name", ID: "arn"}}
	obj := &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{
		"conditions": []any{map[string]any{"type": condition.TypeReady, "status": string(metav1.ConditionTrue)}},
		"parts":      []any{map[string]any{"name": "web", "arn": "arn:web"}, map[string]any{"name": "api", "arn": "arn:api"}},
	}}}
	obj.SetName("g")
	if id, err := usableID(parts, obj, "spec.partRef", "api"); err != nil || id != "arn:api" {
		t.Errorf("part api resolved to %q, %v; want arn:api", id, err)
	}
	if _, err := usableID(parts, obj, "spec.partRef", "db"); !isWaiting(err, condition.ReasonReferenceNotReady) || !strings.Contains(err.Error(), `name "db"`) {
		t.Errorf("a missing part gave %v; want a wait naming it", err)
	}
	if _, err := usableID(parts, obj, "spec.partRef", ""); err == nil {
		t.Errorf("a site that names no element resolved")
	}
}

// TestReferenceToKindNotInstalled checks, through a real API server and the manager's cache,
// that a kind whose references name a kind the API server does not serve still starts (the
// target is not watched), and that such a reference waits with a condition that names the
// family to install.
func TestReferenceToKindNotInstalled(t *testing.T) {
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{testkind.CRDs()},
		AddToScheme: []func(*runtime.Scheme) error{testkind.AddToScheme},
		AWS:         &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}},
	})
	kind := widgetKind(newCloud(), nil)
	kind.References = append(kind.References, managed.One(gadget, "spec.gadgetRef", func(w *testkind.Widget) (*v1alpha1.Reference, *string) {
		if w.Spec.Size != 7 {
			return nil, nil
		}
		return &v1alpha1.Reference{Name: "g"}, &w.Spec.ParentID
	}))
	startManagerWith(t, env, kind, func(*SetupOptions) {})
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "w"}}
	w.Spec.ProviderRef.Name, w.Spec.Size = "aws", 7
	if err := env.Client.Create(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	want := "spec.gadgetRef names a Gadget, but the Gadget kind is not installed (install the gadgets family)"
	waitNamed(t, env, ns, "w", "the missing kind is named", func(w *testkind.Widget) bool {
		c := meta.FindStatusCondition(w.Status.Conditions, condition.TypeReady)
		return c != nil && c.Reason == condition.ReasonReferenceKindNotInstalled && c.Message == want
	})
}

// isWaiting reports whether err is a waiting error with reason.
func isWaiting(err error, reason string) bool {
	w, ok := managed.AsWaiting(err)
	return ok && w.Reason == reason
}

// TestWritingReferenceToObserveOnly checks that a reference that writes into its target's AWS
// resource waits with ReferenceObserveOnly for a target, typed or unstructured, that only
// observes its resource, and that other references and managed targets resolve as before.
func TestWritingReferenceToObserveOnly(t *testing.T) {
	typed := func(policy v1alpha1.ManagementPolicy) *testkind.Widget {
		w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "target"}}
		w.Spec.ManagementPolicy = policy
		return w
	}
	untyped := func(policy v1alpha1.ManagementPolicy) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"managementPolicy": string(policy)}}}
		u.SetNamespace("team")
		u.SetName("target")
		return u
	}
	reads := managed.Ref[*testkind.Widget]{Target: parentTarget}
	writes := reads.Writing()
	cases := map[string]struct {
		reason string
		ref    managed.Ref[*testkind.Widget]
		target client.Object
		want   string
	}{
		"WritesIntoObserved": {
			reason: "A writing reference to an observe-only target waits.",
			ref:    writes, target: typed(v1alpha1.ManagementPolicyObserveOnly), want: condition.ReasonReferenceObserveOnly,
		},
		"WritesIntoObservedUnstructured": {
			reason: "A writing reference to an observe-only target of another family waits.",
			ref:    writes, target: untyped(v1alpha1.ManagementPolicyObserveOnly), want: condition.ReasonReferenceObserveOnly,
		},
		"WritesIntoManaged": {
			reason: "A writing reference to a managed target resolves.",
			ref:    writes, target: typed(v1alpha1.ManagementPolicyManage),
		},
		"WritesIntoDefault": {
			reason: "A writing reference to a target without a management policy (Manage) resolves.",
			ref:    writes, target: untyped(""),
		},
		"ReadsObserved": {
			reason: "A reference that only reads its target resolves to an observe-only target.",
			ref:    reads, target: typed(v1alpha1.ManagementPolicyObserveOnly),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ""
			if err := writable(tc.ref, parentTarget, tc.target, "spec.parentRef"); err != nil {
				w, ok := managed.AsWaiting(err)
				if !ok || !strings.Contains(err.Error(), "spec.parentRef") || !strings.Contains(err.Error(), "team/target") {
					t.Fatalf("%s: got %v; want a waiting error naming the field and the target", tc.reason, err)
				}
				got = w.Reason
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
