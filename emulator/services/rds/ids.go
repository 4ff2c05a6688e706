package rds

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// newResourceID returns a DbiResourceId such as db-ABCDEFGHIJKLMNOPQRSTUVWXYZ.
func newResourceID() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return "db-" + base32.StdEncoding.EncodeToString(b)[:26]
}

// stableUUID returns a UUID-shaped identifier that is the same whenever parts are.
func stableUUID(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "/")))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// endpointHost returns the DNS name of an instance: <id>.<suffix>.<region>.rds.amazonaws.com,
// where the suffix is fixed for each account and region, as on AWS.
func endpointHost(scope core.Scope, id string) string {
	h := sha256.Sum256([]byte(scope.Account + "/" + scope.Region))
	return id + "." + hex.EncodeToString(h[:])[:12] + "." + scope.Region + ".rds.amazonaws.com"
}

// kmsKeyARN returns the ARN RDS reports for a KMS key given as key ARN, alias ARN, alias name or
// key ID; an empty key is the account's AWS managed key of managedAlias (aws/rds), whose ID is
// stable per account and region.
func kmsKeyARN(scope core.Scope, key, managedAlias string) string {
	switch {
	case key == "":
		return scope.ARN("kms", "key/"+stableUUID(scope.Account, scope.Region, managedAlias))
	case strings.HasPrefix(key, "arn:"):
		return key
	case strings.HasPrefix(key, "alias/"):
		return scope.ARN("kms", key)
	}
	return scope.ARN("kms", "key/"+key)
}

// secretARN returns the ARN of the Secrets Manager secret RDS manages for an instance's master
// password.
func secretARN(scope core.Scope, resourceID string) string {
	return scope.ARN("secretsmanager", "secret:rds!db-"+stableUUID(resourceID, "secret")+"-"+strings.ToLower(resourceID[3:9]))
}
