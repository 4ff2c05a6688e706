package engine

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestReferenceChangeIsNotDrift checks that a difference found while the spec's generation is
// the applied one is drift only when the object's references resolve as they did when the spec
// was applied: a referenced object's new identifier changes the spec the operator applies, not
// the AWS resource behind its back. An object never applied in this process counts as unchanged.
func TestReferenceChangeIsNotDrift(t *testing.T) {
	m := newReferenceMemory()
	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "w-uid", Generation: 2}}
	w.Status.ObservedGeneration = 2
	p := &pass[*testkind.Widget]{o: w, orig: w, references: "a"}
	p.referencesChanged = m.changed(w, p.references)
	if !drifted(p) {
		t.Error("a difference at the applied generation, references never applied here, is not drift")
	}
	m.applied(w, "a")
	if p.referencesChanged = m.changed(w, "a"); !drifted(p) {
		t.Error("a difference with the references resolved as applied is not drift")
	}
	if p.referencesChanged = m.changed(w, "b"); drifted(p) {
		t.Error("a difference that a reference's new identifier brings is drift")
	}
	m.forget(w)
	if m.changed(w, "b") {
		t.Error("a forgotten object's references count as changed")
	}
}
