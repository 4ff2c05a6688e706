package core

import (
	"fmt"
	"strings"
	"time"
)

// Minutes in a day and in a week, the periods of daily and weekly windows.
const (
	dayMinutes  = 24 * 60
	weekMinutes = 7 * dayMinutes
)

// weekdays are the day names of weekly windows, in time.Weekday order.
var weekdays = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// Window is a recurring time range in UTC, such as a backup or snapshot window
// ("hh24:mi-hh24:mi", daily) or a maintenance window ("ddd:hh24:mi-ddd:hh24:mi", weekly), as
// RDS and ElastiCache take them.
type Window struct {
	// Start is when the window opens, in minutes after the start of its period (midnight, or
	// Sunday midnight); Length is how long it stays open, in minutes.
	Start, Length int
	// Weekly is true for a weekly window, false for a daily one.
	Weekly bool
}

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

// weekMinutesOf reads "ddd:hh24:mi" as minutes after Sunday midnight.
func weekMinutesOf(s string) (int, bool) {
	d, clock, ok := strings.Cut(s, ":")
	if !ok {
		return 0, false
	}
	for i, name := range weekdays {
		if strings.EqualFold(d, name) {
			m, ok := clockMinutes(clock)
			return i*dayMinutes + m, ok
		}
	}
	return 0, false
}

// ParseWindow reads a daily window (hh24:mi-hh24:mi) or, weekly, a weekly one
// (ddd:hh24:mi-ddd:hh24:mi); ok is false when s is not in that format. A window may run past
// midnight or past the end of the week.
func ParseWindow(s string, weekly bool) (w Window, ok bool) {
	read, period := clockMinutes, dayMinutes
	if weekly {
		read, period = weekMinutesOf, weekMinutes
	}
	from, to, _ := strings.Cut(s, "-")
	start, ok1 := read(from)
	end, ok2 := read(to)
	if !ok1 || !ok2 {
		return Window{}, false
	}
	return Window{Start: start, Length: (end - start + period) % period, Weekly: weekly}, true
}

// Format returns the format of windows like w, for error messages.
func (w Window) Format() string {
	if w.Weekly {
		return "ddd:hh24:mi-ddd:hh24:mi"
	}
	return "hh24:mi-hh24:mi"
}

// Overlaps reports whether daily window w, which recurs every day, overlaps weekly window m.
func (w Window) Overlaps(m Window) bool {
	// The day before Sunday and the Sunday after the week cover windows that run past midnight
	// or past the end of the week.
	for d := -1; d <= 7; d++ {
		bs := d*dayMinutes + w.Start
		for _, ms := range []int{m.Start, m.Start - weekMinutes} {
			if bs < ms+m.Length && ms < bs+w.Length {
				return true
			}
		}
	}
	return false
}

// Next returns when weekly window w next opens at or after now: now itself while it is open.
func (w Window) Next(now time.Time) time.Time {
	now = now.UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	weekStart := midnight.AddDate(0, 0, -int(now.Weekday()))
	into := int(now.Sub(weekStart) / time.Minute)
	if (into-w.Start+weekMinutes)%weekMinutes < w.Length {
		return now
	}
	start := weekStart.Add(time.Duration(w.Start) * time.Minute)
	if start.Before(now) {
		start = start.AddDate(0, 0, 7)
	}
	return start
}
