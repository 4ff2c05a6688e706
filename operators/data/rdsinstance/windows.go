package rdsinstance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	b, ok1 := parseWindow(backup, clock, minutesPerDay)
	m, ok2 := parseWindow(maintenance, weekTime, minutesPerWeek)
	if ok1 && ok2 && overlaps(b, m) {
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

// parseWindow reads "<start>-<end>", each read by point as minutes within a period of
// period minutes: "hh24:mi-hh24:mi" with clock, "ddd:hh24:mi-ddd:hh24:mi" with weekTime.
func parseWindow(s string, point func(string) (int, bool), period int) (window, bool) {
	from, to, ok := strings.Cut(s, "-")
	start, ok1 := point(from)
	end, ok2 := point(to)
	return window{start: start, length: (end - start + period) % period}, ok && ok1 && ok2
}

// weekTime reads "ddd:hh24:mi" as minutes after Monday midnight.
func weekTime(s string) (int, bool) {
	if len(s) != 9 || s[3] != ':' {
		return 0, false
	}
	d := slices.Index(weekdays, s[:3])
	m, ok := clock(s[4:])
	return d*minutesPerDay + m, ok && d >= 0
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
