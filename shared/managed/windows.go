package managed

import (
	"slices"
	"strconv"
	"strings"
)

// Minutes in a day and in a week, the periods of daily (backup, snapshot) and weekly
// (maintenance) windows.
const (
	minutesPerDay  = 24 * 60
	minutesPerWeek = 7 * minutesPerDay
)

// weekdays are the day names of a weekly window, in the order of the week.
var weekdays = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// window is a recurring time range: its start and length in minutes within its period.
type window struct{ start, length int }

// WindowsOverlap reports whether the daily window "hh24:mi-hh24:mi" (an RDS backup window, an
// ElastiCache snapshot window) meets the weekly window "ddd:hh24:mi-ddd:hh24:mi" (a
// maintenance window) on any day, which AWS refuses. Either window empty (AWS picks it) or
// malformed (admission refuses it) does not overlap.
func WindowsOverlap(daily, weekly string) bool {
	d, ok1 := parseWindow(daily, clock, minutesPerDay)
	w, ok2 := parseWindow(weekly, weekTime, minutesPerWeek)
	return ok1 && ok2 && overlaps(d, w)
}

// overlaps reports whether the daily window d meets the weekly window w. Every day holds d, so
// they meet when w, folded onto one day, meets d there.
func overlaps(d, w window) bool {
	if w.length >= minutesPerDay {
		return true
	}
	ws := w.start % minutesPerDay
	return (ws-d.start+minutesPerDay)%minutesPerDay < d.length || (d.start-ws+minutesPerDay)%minutesPerDay < w.length
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
