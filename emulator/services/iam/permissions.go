package iam

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// RolePermits answers, for the services that act with a role (Lambda reading an event source
// with a function's execution role), whether the role roleARN is known in the call's account
// and, when it is, the first of actions, in their order, that its permissions do not allow on
// resource ("" when they allow them all). The permissions are the role's identity-based
// policies, its inline policies and the default versions of its attached managed policies
// (customer managed or AWS managed), evaluated as core.Evaluate does, within its permissions
// boundary when it has one. A role of another account, or not visible yet, is not known.
func (b *Backend) RolePermits(call *core.Call, roleARN, resource string, actions ...string) (known bool, refused string) {
	b.state.Lock()
	defer b.state.Unlock()
	a := b.state.Of(call)
	r := a.roleByARN(call, roleARN)
	if r == nil {
		return false, ""
	}
	identity := r.identityDocuments()
	var boundary []string
	if r.boundary != "" {
		boundary = a.defaultDocuments(call, r.boundary)
	}
	for _, action := range actions {
		if core.Evaluate(identity, action, resource) != core.Allowed ||
			r.boundary != "" && core.Evaluate(boundary, action, resource) != core.Allowed {
			return true, action
		}
	}
	return true, ""
}

// roleByARN returns the account's role with arn (arn:aws:iam::account:role/path/name), nil when
// the ARN names none the call sees. The caller holds the backend's lock.
func (a *account) roleByARN(call *core.Call, arn string) *role {
	prefix := "arn:aws:iam::" + a.id + ":role/"
	if !strings.HasPrefix(arn, prefix) {
		return nil
	}
	r, ok := a.roles[key(arn[strings.LastIndex(arn, "/")+1:])]
	if !ok || !strings.EqualFold(r.arn, arn) || !r.visible(call) {
		return nil
	}
	return r
}

// identityDocuments returns the documents of a role's identity-based policies: its inline
// policies and the default versions of its attached managed policies. The caller holds the
// backend's lock.
func (r *role) identityDocuments() []string {
	docs := make([]string, 0, len(r.inline)+len(r.attached))
	for _, name := range core.SortedKeys(r.inline) {
		docs = append(docs, r.inline[name])
	}
	for _, p := range r.attached {
		docs = append(docs, p.document())
	}
	return docs
}

// document returns the document of the policy's default version.
func (p *policy) document() string { return p.versions[p.defaultVersion].document }

// defaultDocuments returns the document of the default version of the managed policy arn, in a
// list of one, or none when the call sees no such policy. The caller holds the backend's lock.
func (a *account) defaultDocuments(call *core.Call, arn string) []string {
	p, err := a.managed(call, arn)
	if err != nil || p == nil {
		return nil
	}
	return []string{p.document()}
}
