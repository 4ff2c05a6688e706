package ekscluster

import (
	"strconv"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	tokens "github.com/runner-codes/infra-operator/operators/compute/internal/token"
)

// token returns the idempotency token of the call that creates o's node group or add-on
// (part) name: a UUID-shaped digest of o's UID, the part, its name and o's generation. A
// create repeated after a lost answer gets what the first call made; the same name created
// again after a spec change (removed, then added back) gets a token of its own, so that AWS
// never answers it with the deleted one.
func token(o *v1alpha1.EKSCluster, part, name string) string {
	return tokens.UUID(string(o.GetUID()), part, name, strconv.FormatInt(o.GetGeneration(), 10))
}
