package ekscluster

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
)

// token returns the idempotency token of the call that creates o's node group or add-on
// (part) name: a UUID-shaped digest of o's UID, the part, its name and o's generation. A
// create repeated after a lost answer gets what the first call made; the same name created
// again after a spec change (removed, then added back) gets a token of its own, so that AWS
// never answers it with the deleted one.
func token(o *v1alpha1.EKSCluster, part, name string) string {
	sum := sha256.Sum256([]byte(string(o.GetUID()) + "/" + part + "/" + name + "/" + strconv.FormatInt(o.GetGeneration(), 10)))
	h := hex.EncodeToString(sum[:16])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
