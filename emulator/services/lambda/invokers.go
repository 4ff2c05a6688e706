package lambda

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// MayInvoke reports whether the function arn (unqualified, or a published version) exists in
// scope and, when it does, whether its resource-based policy lets the service principal invoke
// it (lambda:InvokeFunction) from sourceARN, as core.ServiceAllowed evaluates resource-based
// policies (an explicit Deny wins; AWS:SourceArn and AWS:SourceAccount conditions are checked).
// ELBv2 checks its Lambda targets with it.
func (b *Backend) MayInvoke(scope core.Scope, arn, principal, sourceARN string) (exists, allowed bool) {
	parts := strings.Split(arn, ":")
	if len(parts) < 7 || parts[5] != "function" || parts[4] != scope.Account || parts[3] != scope.Region {
		return false, false
	}
	name, qualifier := parts[6], ""
	if len(parts) > 7 {
		qualifier = parts[7]
	}
	core.With(b.state, scope, func(fns map[string]*function) any {
		f := fns[name]
		if f == nil {
			return nil
		}
		key := ""
		if qualifier != "" && qualifier != "$LATEST" {
			if _, ok := f.versions[qualifier]; !ok {
				return nil
			}
			key = qualifier
		}
		exists = true
		if p := f.policies[key]; p != nil {
			allowed = core.ServiceAllowed(p.document(), principal, "lambda:InvokeFunction", arn, sourceARN, scope.Account)
		}
		return nil
	})
	return exists, allowed
}
