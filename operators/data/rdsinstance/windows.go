package rdsinstance

import (
	"fmt"
	"slices"
	"strconv"
)

// Minutes in a day and in a week, the periods of the backup and maintenance windows.
const (
	minutesPerDay  = 24 * 60
	minutesPerWeek = 7 * minutesPerDay
)

// weekdays are the day names of a maintenance window, in the order of the week.
var weekdays = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// window is a recurring time range: its start and length in minutes within its period.
type window struct{ start, length int }

// checkWindows refuses a backup window that overlaps the maintenance window on any day: the
// backup window recurs daily, the maintenance window weekly, and RDS refuses the two to meet.
// Either window empty (AWS picks it) or malformed (admission refuses it) is not checked.
func checkWindows(backup, maintenance string) error {
	b, ok := backupWindow(backup)
	if !ok {
		return nil
	}
	m, ok := maintenanceWindow(maintenance)
	if !ok {
		return nil
	}
	if overlaps(b, m) {
		return fmt.Errorf("preferredBackupWindow %s overlaps preferredMaintenanceWindow %s: backups run every day, and RDS refuses a backup window that meets the maintenance window; move one of them", backup, maintenance)
	}
	return nil
}

// overlaps reports whether the daily window b meets the weekly window m. Every day holds b, so
// they meet when m, folded onto one day, meets b there.
func overlaps(b, m window) bool {
	if m.length >= minutesPerDay {
		return true
	}
	ms := m.start % minutesPerDay
	return (ms-b.start+minutesPerDay)%minutesPerDay < b.length || (b.start-ms+minutesPerDay)%minutesPerDay < m.length
}

// backupWindow reads "hh24:mi-hh24:mi".
func backupWindow(s string) (window, bool) {
	if len(s) != 11 || s[5] != '-' {
		return window{}, false
	}
	start, ok1 := clock(s[:5])
	end, ok2 := clock(s[6:])
	return window{start: start, length: (end - start + minutesPerDay) % minutesPerDay}, ok1 && ok2
}

// maintenanceWindow reads "ddd:hh24:mi-ddd:hh24:mi".
func maintenanceWindow(s string) (window, bool) {
	if len(s) != 19 || s[9] != '-' {
		return window{}, false
	}
	start, ok1 := weekTime(s[:9])
	end, ok2 := weekTime(s[10:])
	return window{start: start, length: (end - start + minutesPerWeek) % minutesPerWeek}, ok1 && ok2
}

// weekTime reads "ddd:hh24:mi" as minutes after Monday midnight.
func weekTime(s string) (int, bool) {
	d := slices.Index(weekdays, s[:3])
	if d < 0 || s[3] != ':' {
		return 0, false
	}
	m, ok := clock(s[4:])
	return d*minutesPerDay + m, ok
}

// clock reads "hh24:mi" as minutes after midnight.
func clock(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[:2])
	m, err2 := strconv.Atoi(s[3:])
	if err1 != nil || err2 != nil || h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}
