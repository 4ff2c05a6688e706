package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/guardrails"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// guard runs the kind's Guard on o, whose references are resolved, before any AWS call: a
// refusal of the administrator's guardrails is terminal with the refusal's reason. An object
// that only observes writes nothing and is not checked. The provider's account is read from
// its status as the cache has it now (the session's copy may predate its validation).
func (r *Reconciler[O, S]) guard(ctx context.Context, o O, sess *provider.Session) error {
	if r.kind.Guard == nil || r.opts.Guardrails == nil || v1alpha1.ObserveOnly(o) {
		return nil
	}
	key := provider.ProviderKey(o)
	p := key.New()
	if err := r.client.Get(ctx, key.NamespacedName(), p); err != nil {
		return fmt.Errorf("get %s for its account: %w", key.Describe(), err)
	}
	g := managed.Guardrails{IAM: r.opts.Guardrails, Kube: r.client, Tenant: guardrails.Tenant{Namespace: o.GetNamespace(),
		AccountID: p.ProviderStatus().AccountID, Partition: provider.Partition(sess.Config.Region)}}
	err := r.kind.Guard(ctx, o, g)
	if refusal := (*guardrails.Refusal)(nil); errors.As(err, &refusal) {
		return &managed.TerminalError{Reason: refusal.Reason, Err: err}
	}
	return err
}
