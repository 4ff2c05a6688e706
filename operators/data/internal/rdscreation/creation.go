// Package rdscreation checks the settings RDS takes only when a DB instance or a DB cluster is
// created, for the RDSInstance and RDSDBCluster kinds: an adopted resource, or an identifier
// taken over, whose settings are not the spec's is refused rather than silently kept.
package rdscreation

import (
	"fmt"
	"strings"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Settings are the settings RDS sets only at creation.
type Settings struct {
	Engine, MasterUsername string
	// DBNameField is the spec's field for the database's name (dbName, databaseName); DBName
	// is its value.
	DBNameField, DBName string
	StorageEncrypted    bool
	KMSKeyID            string
}

// Check returns a terminal condition when the settings AWS has (got) for resource, for example
// "DB instance orders", are not the spec's (want). Names compare without case; an absent
// database name or KMS key in the spec takes what AWS has.
func Check(resource string, want, got Settings) error {
	differs := func(field, aws, spec string) error {
		return managed.Terminal(condition.ReasonInvalidSpec, "%s has %s %q in AWS, not the spec's %q; %s is set only at creation",
			resource, field, aws, spec, field)
	}
	switch {
	case !strings.EqualFold(got.Engine, want.Engine):
		return differs("engine", got.Engine, want.Engine)
	case !strings.EqualFold(got.MasterUsername, want.MasterUsername):
		return differs("masterUsername", got.MasterUsername, want.MasterUsername)
	case want.DBName != "" && !strings.EqualFold(got.DBName, want.DBName):
		return differs(want.DBNameField, got.DBName, want.DBName)
	case got.StorageEncrypted != want.StorageEncrypted:
		return differs("storageEncrypted", fmt.Sprint(got.StorageEncrypted), fmt.Sprint(want.StorageEncrypted))
	case want.KMSKeyID != "" && !SameKey(want.KMSKeyID, got.KMSKeyID):
		return differs("kmsKeyID", got.KMSKeyID, want.KMSKeyID)
	}
	return nil
}

// SameKey reports whether the KMS key ARN got is the key want names by ARN, key ID or alias
// (an alias ARN ends with ":alias/<name>").
func SameKey(want, got string) bool {
	return managed.SameKMSKey(want, got) || strings.HasSuffix(got, ":"+want)
}
