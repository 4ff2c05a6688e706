package engine

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// outputsField names spec.writeOutputsTo in conditions.
const outputsField = "spec.writeOutputsTo"

// writeOutputs writes the outputs o's kind declares (managed.CollectOutputs) into the Secret
// or ConfigMap spec.writeOutputsTo names, creating it owned by o, and updates it when its data
// differs. The target is read from the API server (Secrets and ConfigMaps are not cached), so
// one that was deleted is written again on the next pass. One that exists and is not o's is
// never written: that is a *WaitingError (OutputsNotWritten), like a Secret value it must copy
// that is missing.
func (r *Reconciler[O, S]) writeOutputs(ctx context.Context, o O) error {
	target := o.GetManagedSpec().WriteOutputsTo
	if target == nil {
		return nil
	}
	outs := managed.CollectOutputs(o)
	var obj client.Object
	var same func(existing client.Object) bool
	if target.Kind == "ConfigMap" {
		cm := &corev1.ConfigMap{Data: outs.Values}
		obj = cm
		same = func(existing client.Object) bool { return maps.Equal(existing.(*corev1.ConfigMap).Data, cm.Data) }
	} else {
		data := make(map[string][]byte, len(outs.Values)+len(outs.Secrets))
		for k, v := range outs.Values {
			data[k] = []byte(v)
		}
		for k, ref := range outs.Secrets {
			value, _, err := managed.SecretValue(ctx, r.reader, o.GetNamespace(), outputsField, ref)
			if err != nil {
				return err
			}
			data[k] = value
		}
		sec := &corev1.Secret{Type: corev1.SecretTypeOpaque, Data: data}
		obj = sec
		same = func(existing client.Object) bool {
			return maps.EqualFunc(existing.(*corev1.Secret).Data, sec.Data, func(a, b []byte) bool { return string(a) == string(b) })
		}
	}
	obj.SetNamespace(o.GetNamespace())
	obj.SetName(target.Name)
	obj.SetLabels(map[string]string{"app.kubernetes.io/managed-by": "infra-operator"})
	if err := controllerutil.SetControllerReference(o, obj, r.client.Scheme()); err != nil {
		return fmt.Errorf("own the outputs %s %s: %w", kindOf(target), target.Name, err)
	}
	existing := obj.DeepCopyObject().(client.Object)
	err := r.reader.Get(ctx, types.NamespacedName{Namespace: o.GetNamespace(), Name: target.Name}, existing)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.client.Create(ctx, obj); err != nil {
			return fmt.Errorf("create the outputs %s %s: %w", kindOf(target), target.Name, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("read the outputs %s %s: %w", kindOf(target), target.Name, err)
	}
	if !metav1.IsControlledBy(existing, o) {
		return &managed.WaitingError{Reason: condition.ReasonOutputsNotWritten, After: r.opts.ProviderRetry,
			Message: fmt.Sprintf("%s %s already exists and this object did not create it; the operator never writes into it: "+
				"choose another %s.name, or delete it", kindOf(target), target.Name, outputsField)}
	}
	if same(existing) {
		return nil
	}
	obj.SetResourceVersion(existing.GetResourceVersion())
	if err := r.client.Update(ctx, obj); err != nil {
		return fmt.Errorf("update the outputs %s %s: %w", kindOf(target), target.Name, err)
	}
	return nil
}

// kindOf returns the kind of Kubernetes object target names.
func kindOf(target *v1alpha1.OutputsTarget) string {
	if target.Kind == "ConfigMap" {
		return "ConfigMap"
	}
	return "Secret"
}
