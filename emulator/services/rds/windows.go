package rds

import (
	"strings"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The default windows of a new instance. AWS picks a random 30-minute window in an 8-hour block
// of each region; the emulator picks the same ones everywhere, so that tests can rely on them.
const (
	defaultBackupWindow      = "03:00-03:30"
	defaultMaintenanceWindow = "sun:05:00-sun:05:30"
)

// parseWindow reads a window of at least 30 minutes: hh24:mi-hh24:mi (daily) or, weekly,
// ddd:hh24:mi-ddd:hh24:mi.
func parseWindow(param, s string, weekly bool) (core.Window, error) {
	w, ok := core.ParseWindow(s, weekly)
	if !ok {
		return core.Window{}, invalidValue("The parameter %s must be in the format %s: %s", param, core.Window{Weekly: weekly}.Format(), s)
	}
	if w.Length < 30 {
		return core.Window{}, invalidValue("The parameter %s must be at least 30 minutes long: %s", param, s)
	}
	return w, nil
}

// checkWindows checks a backup window and a maintenance window, which must not overlap.
func checkWindows(backup, maintenance string) error {
	b, err := parseWindow("PreferredBackupWindow", backup, false)
	if err != nil {
		return err
	}
	m, err := parseWindow("PreferredMaintenanceWindow", maintenance, true)
	if err != nil {
		return err
	}
	if b.Overlaps(m) {
		return invalidValue("The backup window and maintenance window must not overlap.")
	}
	return nil
}

// setWindows gives the new backup and maintenance windows a request names (nil: unchanged; the
// maintenance window lowercased, as AWS keeps it) to *backup and *maintenance, and checks them.
func setWindows(backup, maintenance, newBackup, newMaintenance *string) error {
	set(backup, newBackup)
	if newMaintenance != nil {
		*maintenance = strings.ToLower(*newMaintenance)
	}
	return checkWindows(*backup, *maintenance)
}

// nextMaintenance returns when a maintenance window (valid, as stored) next opens at or after
// now: now itself when the window is open.
func nextMaintenance(now time.Time, maintenance string) time.Time {
	m, _ := core.ParseWindow(maintenance, true)
	return m.Next(now)
}
