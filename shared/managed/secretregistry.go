package managed

import (
	"context"
	"sync"
)

// secretsKey keys the secret registry of the pass being reconciled in a context.
type secretsKey struct{}

// Secrets holds the secret values one reconcile pass has read or made: the values of the
// Secrets a driver reads through SecretValue and SecretData, and any other secret material a
// driver puts into a request (RegisterSecret). The engine removes them from every message
// before it reaches a condition, an event or a log, so that an AWS error that echoes a request
// (Lambda's refusal of an environment over 4 KB shows every variable) does not reveal them.
// It is safe for concurrent use.
type Secrets struct {
	mu     sync.Mutex
	values map[string]struct{}
}

// WithSecrets returns ctx carrying a new, empty registry, and the registry; the engine calls
// it for every pass.
func WithSecrets(ctx context.Context) (context.Context, *Secrets) {
	s := &Secrets{values: map[string]struct{}{}}
	return context.WithValue(ctx, secretsKey{}, s), s
}

// RegisterSecret records value as secret in the registry of the pass ctx belongs to, so that
// the engine removes it from what it reports. Drivers call it for secret material they make or
// derive themselves (a generated password, a token); SecretValue and SecretData register what
// they return. Outside a pass it does nothing.
func RegisterSecret(ctx context.Context, value []byte) {
	if s, ok := ctx.Value(secretsKey{}).(*Secrets); ok {
		s.add(value)
	}
}

// add records value; an empty value holds nothing to hide.
func (s *Secrets) add(value []byte) {
	if len(value) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.values[string(value)] = struct{}{}
}

// Values returns the registered values, in no particular order. A nil registry holds none.
func (s *Secrets) Values() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.values))
	for v := range s.values {
		out = append(out, v)
	}
	return out
}
