package rdswindows

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckWindows checks which backup and maintenance windows Check finds overlapping.
func TestCheckWindows(t *testing.T) {
	type args struct{ backup, maintenance string }
	cases := map[string]struct {
		reason string
		args   args
		want   bool // an error
	}{
		"Apart":                     {reason: "The seed's windows touch but do not overlap.", args: args{"03:00-04:00", "sun:04:00-sun:05:00"}},
		"SameHours":                 {reason: "A daily backup at the maintenance window's hours overlaps it on its day.", args: args{"03:00-04:00", "wed:03:30-wed:04:30"}, want: true},
		"MaintenanceAcrossMidnight": {reason: "A maintenance window running past midnight meets a backup window early the next day.", args: args{"00:10-00:40", "sat:23:30-sun:00:30"}, want: true},
		"BackupAcrossMidnight":      {reason: "A backup window running past midnight meets a maintenance window that starts just after it.", args: args{"23:30-00:30", "tue:00:00-tue:00:30"}, want: true},
		"BackupAcrossMidnightApart": {reason: "A backup window running past midnight does not meet a maintenance window later that morning.", args: args{"23:30-00:30", "tue:00:30-tue:01:00"}},
		"WeekWraps":                 {reason: "A maintenance window from Sunday to Monday meets the backup window on Monday.", args: args{"01:00-01:30", "sun:23:00-mon:02:00"}, want: true},
		"LongMaintenance":           {reason: "A maintenance window of a day or more meets every backup window.", args: args{"12:00-12:30", "mon:13:00-tue:13:00"}, want: true},
		"NoMaintenanceWindow":       {reason: "Without a maintenance window AWS picks one that fits, so nothing is checked.", args: args{"03:00-04:00", ""}},
		"NoBackupWindow":            {reason: "Without a backup window AWS picks one that fits, so nothing is checked.", args: args{"", "sun:04:00-sun:05:00"}},
		"Malformed":                 {reason: "A window admission refuses (the hour without its leading zero) is not checked.", args: args{"3:00-4:00", "sun:03:00-sun:04:00"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := Check(tc.args.backup, tc.args.maintenance)
			if diff := cmp.Diff(tc.want, err != nil); diff != "" {
				t.Errorf("%s\nCheck(%q, %q) = %v; error wanted (-want +got):\n%s", tc.reason, tc.args.backup, tc.args.maintenance, err, diff)
			}
		})
	}
}
