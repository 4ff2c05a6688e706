package elasticachecluster

import (
	"context"
	"fmt"
	"regexp"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// authTokenPattern is the form ElastiCache takes for an AUTH token: 16 to 128 letters, digits
// and the characters !&#$^<>- (CreateReplicationGroup, AuthToken).
var authTokenPattern = regexp.MustCompile(`^[A-Za-z0-9!&#$^<>-]{16,128}$`)

// token is the AUTH token the spec's Secret holds. The value never leaves the driver but for
// ElastiCache.
type token struct {
	value string
	// hash is the value's salted hash, kept in status.authTokenHash.
	hash string
}

// authToken reads the AUTH token from the Secret key the spec names, nil when it names none
// (see managed.SecretValue: a missing Secret or key waits, and recovers by itself). A token
// ElastiCache would refuse is a *managed.TerminalError that never holds the value.
func (d *driver) authToken(ctx context.Context, c *v1alpha1.ElastiCacheCluster) (*token, error) {
	ref := c.Spec.AuthTokenSecretRef
	if ref == nil {
		return nil, nil
	}
	v, _, err := managed.SecretValue(ctx, d.kube, c.Namespace, "spec.authTokenSecretRef", *ref)
	if err != nil {
		return nil, err
	}
	if !authTokenPattern.Match(v) {
		return nil, managed.Terminal(condition.ReasonSecretValueInvalid, "the AUTH token in Secret %s/%s, key %q, is not 16 to 128 letters, digits and !&#$^<>- "+
			"(a value written from a file often ends with a line break); change the Secret's value", c.Namespace, ref.Name, ref.Key)
	}
	h, err := managed.ValueHash(string(v), string(c.UID))
	if err != nil {
		return nil, fmt.Errorf("hash the AUTH token of cluster %s: %w", c.Spec.ClusterID, err)
	}
	return &token{value: string(v), hash: h}, nil
}
