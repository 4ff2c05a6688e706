package plan

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// manifest returns an object of the infra-operator group.
func manifest(kind, name, namespace string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"name": name}}}
	u.SetAPIVersion(v1alpha1.GroupVersion.String())
	u.SetKind(kind)
	u.SetName(name)
	u.SetNamespace(namespace)
	return u
}

// fakeCluster is a fake client whose dry runs add a default to the spec (and refuse the
// object named "invalid"), and whose Previews are answered by a fake messaging operator
// when read: it plans what it sends in answers, and records the objects it was sent.
type fakeCluster struct {
	client.WithWatch
	answers map[string]v1alpha1.PreviewAction
	sent    []map[string]any
}

func newFakeCluster(t *testing.T, answers map[string]v1alpha1.PreviewAction) *fakeCluster {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	f := &fakeCluster{answers: answers}
	f.WithWatch = interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme).Build(), interceptor.Funcs{
		Apply: func(_ context.Context, _ client.WithWatch, obj runtime.ApplyConfiguration, _ ...client.ApplyOption) error {
			b, err := json.Marshal(obj)
			if err != nil {
				return err
			}
			u := &unstructured.Unstructured{}
			if err := json.Unmarshal(b, &u.Object); err != nil {
				return err
			}
			if u.GetName() == "invalid" {
				return apierrors.NewInvalid(schema.GroupKind{Group: v1alpha1.Group, Kind: u.GetKind()}, u.GetName(),
					field.ErrorList{field.Invalid(field.NewPath("spec", "name"), "invalid", "must not be invalid")})
			}
			return nil
		},
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if err := c.Get(ctx, key, obj, opts...); err != nil {
				return err
			}
			u := obj.(*unstructured.Unstructured)
			var p v1alpha1.Preview
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &p); err != nil {
				return err
			}
			f.sent = nil
			p.Status = v1alpha1.PreviewStatus{ObservedGeneration: p.Generation, Families: []string{"messaging"}}
			for _, raw := range p.Spec.Objects {
				var m map[string]any
				if err := json.Unmarshal(raw.Raw, &m); err != nil {
					return err
				}
				f.sent = append(f.sent, m)
				o := unstructured.Unstructured{Object: m}
				if a, ok := f.answers[o.GetName()]; ok {
					p.Status.Results = append(p.Status.Results, v1alpha1.PreviewResult{Kind: o.GetKind(), Name: o.GetName(),
						Family: "messaging", Action: a})
				}
			}
			if p.Spec.Prune {
				p.Status.Results = append(p.Status.Results, v1alpha1.PreviewResult{Kind: "SQSQueue", Name: "stale",
					Family: "messaging", Action: v1alpha1.PreviewDelete, ExternalName: "stale-url"})
			}
			out, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&p)
			u.Object = out
			return err
		},
	})
	return f
}

// TestRun checks a whole plan against a fake cluster: the dry-run refusal, the objects sent,
// the answers and the prune entry, the object with no answer, and the Preview's deletion.
func TestRun(t *testing.T) {
	c := newFakeCluster(t, map[string]v1alpha1.PreviewAction{"orders": v1alpha1.PreviewCreate})
	secret := &unstructured.Unstructured{}
	secret.SetAPIVersion("v1")
	secret.SetKind("Secret")
	secret.SetName("db")
	objs := []*unstructured.Unstructured{
		manifest("SQSQueue", "orders", ""), manifest("SNSTopic", "silent", "team"), manifest("SQSQueue", "invalid", ""), secret,
		manifest("AWSProvider", "default", ""),
	}
	r, err := Run(context.Background(), c, Options{Namespace: "team", Objects: objs, Prune: true,
		Families: map[string]string{"SQSQueue": "messaging", "SNSTopic": "messaging", "S3Bucket": "data"},
		Timeout:  300 * time.Millisecond, Interval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := []Object{
		{Kind: "SQSQueue", Name: "orders", Family: "messaging", Action: Create},
		{Kind: "SNSTopic", Name: "silent", Family: "messaging", Action: NoAnswer, Reason: ReasonNoAnswer,
			Message: "no answer: is the messaging operator running?"},
		{Kind: "SQSQueue", Name: "invalid", Family: "messaging", Action: Refused, Reason: ReasonInvalid,
			Message: `SQSQueue.aws-infra-operator.runner.codes "invalid" is invalid: spec.name: Invalid value: "invalid": must not be invalid`},
		{Kind: "SQSQueue", Name: "stale", Family: "messaging", Action: Delete, ExternalName: "stale-url"},
	}
	if diff := cmp.Diff(want, r.Objects); diff != "" {
		t.Errorf("objects -want +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"data"}, r.MissingFamilies); diff != "" {
		t.Errorf("missing families -want +got:\n%s", diff)
	}
	if len(r.NotPlanned) != 2 || r.Summary.NotPlanned != 2 {
		t.Errorf("not planned = %v, want the Secret and the AWSProvider", r.NotPlanned)
	}
	wantSent := map[string]any{"apiVersion": v1alpha1.GroupVersion.String(), "kind": "SQSQueue",
		"metadata": map[string]any{"name": "orders", "namespace": "team"}, "spec": map[string]any{"name": "orders"}}
	if len(c.sent) != 2 || !cmp.Equal(wantSent, c.sent[0]) {
		t.Errorf("sent %v, want orders (as below) and silent\n%v", c.sent, wantSent)
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(v1alpha1.GroupVersion.WithKind("PreviewList"))
	if err := c.List(context.Background(), list); err != nil || len(list.Items) != 0 {
		t.Errorf("Previews left: %d (%v), want none", len(list.Items), err)
	}
	if got := r.ExitCode(); got != ExitBlocked {
		t.Errorf("ExitCode() = %d, want %d", got, ExitBlocked)
	}
}

// TestRunOtherNamespace checks that an object of another namespace stops the plan before
// anything is sent.
func TestRunOtherNamespace(t *testing.T) {
	c := newFakeCluster(t, nil)
	_, err := Run(context.Background(), c, Options{Namespace: "team", Objects: []*unstructured.Unstructured{manifest("SQSQueue", "q", "other")}})
	if err == nil {
		t.Fatal("Run succeeded, want an error naming the namespace")
	}
}

// TestRunNothingToSend checks that without managed objects and without prune no Preview is
// made and nothing would change.
func TestRunNothingToSend(t *testing.T) {
	c := newFakeCluster(t, nil)
	r, err := Run(context.Background(), c, Options{Namespace: "team"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Objects) != 0 || r.ExitCode() != ExitNoChanges || c.sent != nil {
		t.Errorf("report %+v, sent %v: want an empty plan and nothing sent", r, c.sent)
	}
}
