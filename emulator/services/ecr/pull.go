package ecr

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Pullable reports whether the registry of scope (an account and Region) holds an image of the
// repository named name under reference, a tag or a digest ("sha256:..."): what a container
// runtime pulling <account>.dkr.ecr.<region>.amazonaws.com/<name>:<tag> or @<digest> would
// find. The ECS backend asks it before it starts a task.
func (b *Backend) Pullable(scope core.Scope, name, reference string) bool {
	return core.With(b.state, scope, func(reg *registry) bool {
		r, ok := reg.repos[name]
		if !ok {
			return false
		}
		if strings.HasPrefix(reference, "sha256:") {
			_, ok = r.images[reference]
			return ok
		}
		_, ok = r.tagged[reference]
		return ok
	})
}
