package rds

import (
	"fmt"
	"strings"
	"time"
)

// The default windows of a new instance. AWS picks a random 30-minute window in an 8-hour block
// of each region; the emulator picks the same ones everywhere, so that tests can rely on them.
const (
	defaultBackupWindow      = "03:00-03:30"
	defaultMaintenanceWindow = "sun:05:00-sun:05:30"
)

const (
	day  = 24 * 60
	week = 7 * day
)

// weekdays are the day names of maintenance windows, in time.Weekday order.
var weekdays = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// clockMinutes reads "hh24:mi" as minutes after midnight.
func clockMinutes(s string) (int, bool) {
	var h, m int
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	if _, err := fmt.Sscanf(s, "%02d:%02d", &h, &m); err != nil || h > 23 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

// weekMinutes reads "ddd:hh24:mi" as minutes after Sunday midnight.
func weekMinutes(s string) (int, bool) {
	d, clock, ok := strings.Cut(s, ":")
	if !ok {
		return 0, false
	}
	for i, name := range weekdays {
		if strings.EqualFold(d, name) {
			m, ok := clockMinutes(clock)
			return i*day + m, ok
		}
	}
	return 0, false
}

// window is a recurring time range: its start and length in minutes.
type window struct{ start, length int }

// parseWindow reads a window of at least 30 minutes whose bounds read is given: hh24:mi-hh24:mi
// (daily, period day) or ddd:hh24:mi-ddd:hh24:mi (weekly, period week).
func parseWindow(param, s string, read func(string) (int, bool), period int) (window, error) {
	from, to, _ := strings.Cut(s, "-")
	start, ok1 := read(from)
	end, ok2 := read(to)
	if !ok1 || !ok2 {
		format := "hh24:mi-hh24:mi"
		if period == week {
			format = "ddd:hh24:mi-ddd:hh24:mi"
		}
		return window{}, invalidValue("The parameter %s must be in the format %s: %s", param, format, s)
	}
	w := window{start: start, length: (end - start + period) % period}
	if w.length < 30 {
		return window{}, invalidValue("The parameter %s must be at least 30 minutes long: %s", param, s)
	}
	return w, nil
}

// checkWindows checks a backup window and a maintenance window, which must not overlap.
func checkWindows(backup, maintenance string) error {
	b, err := parseWindow("PreferredBackupWindow", backup, clockMinutes, day)
	if err != nil {
		return err
	}
	m, err := parseWindow("PreferredMaintenanceWindow", maintenance, weekMinutes, week)
	if err != nil {
		return err
	}
	// The backup window recurs daily; the day before Sunday and the Sunday after the week cover
	// windows that run past midnight or past the end of the week.
	for d := -1; d <= 7; d++ {
		bs := d*day + b.start
		for _, ms := range []int{m.start, m.start - week} {
			if bs < ms+m.length && ms < bs+b.length {
				return invalidValue("The backup window and maintenance window must not overlap.")
			}
		}
	}
	return nil
}

// nextMaintenance returns when a maintenance window (valid, as stored) next opens at or after
// now: now itself when the window is open.
func nextMaintenance(now time.Time, maintenance string) time.Time {
	m, _ := parseWindow("PreferredMaintenanceWindow", maintenance, weekMinutes, week)
	now = now.UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	weekStart := midnight.AddDate(0, 0, -int(now.Weekday()))
	into := int(now.Sub(weekStart) / time.Minute)
	if (into-m.start+week)%week < m.length {
		return now
	}
	start := weekStart.Add(time.Duration(m.start) * time.Minute)
	if start.Before(now) {
		start = start.AddDate(0, 0, 7)
	}
	return start
}
