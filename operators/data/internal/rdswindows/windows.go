// Package rdswindows checks the backup and maintenance windows of an RDS database (a DB
// instance, an Aurora DB cluster) against each other, which admission cannot.
package rdswindows

import (
	"fmt"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// Check refuses a backup window that overlaps the maintenance window on any day: the backup
// window recurs daily, the maintenance window weekly, and RDS refuses the two to meet. Either
// window empty (AWS picks it) or malformed (admission refuses it) is not checked.
func Check(backup, maintenance string) error {
	if managed.WindowsOverlap(backup, maintenance) {
		return fmt.Errorf("preferredBackupWindow %s overlaps preferredMaintenanceWindow %s: backups run every day, and RDS refuses a backup window that meets the maintenance window; move one of them", backup, maintenance)
	}
	return nil
}
