package engine

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// referenceMemory remembers, per object, what its references resolved to when its spec was
// last applied: a difference found with the same generation is drift only when they still
// resolve the same way, since a referenced object's new identifier (a task definition's new
// revision, a replaced subnet) changes the spec the operator applies without changing the
// object. It lives in memory: after a restart, the first pass counts as unchanged references.
type referenceMemory struct {
	mu   sync.Mutex
	last map[types.UID]string
}

func newReferenceMemory() *referenceMemory { return &referenceMemory{last: map[types.UID]string{}} }

// changed reports whether o's references resolve, in this pass, to other identifiers (digest)
// than when its spec was last applied.
func (m *referenceMemory) changed(o v1alpha1.Managed, digest string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	last, ok := m.last[o.GetUID()]
	return ok && last != digest
}

// applied records what o's references resolved to (digest) in a pass that applied its spec.
func (m *referenceMemory) applied(o v1alpha1.Managed, digest string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.last[o.GetUID()] = digest
}

// forget drops o: it is gone.
func (m *referenceMemory) forget(o v1alpha1.Managed) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.last, o.GetUID())
}
