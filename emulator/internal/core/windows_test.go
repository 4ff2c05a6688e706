package core

import (
	"testing"
	"time"
)

func TestParseWindow(t *testing.T) {
	for _, tc := range []struct {
		in     string
		weekly bool
		want   Window
		ok     bool
	}{
		{"03:00-04:30", false, Window{Start: 180, Length: 90}, true},
		{"23:30-00:30", false, Window{Start: 1410, Length: 60}, true},
		{"sun:05:00-sun:06:00", true, Window{Start: 300, Length: 60, Weekly: true}, true},
		{"sat:23:00-sun:01:00", true, Window{Start: 6*1440 + 1380, Length: 120, Weekly: true}, true},
		{"Mon:03:00-mon:04:00", true, Window{Start: 1440 + 180, Length: 60, Weekly: true}, true},
		{"24:00-01:00", false, Window{}, false},
		{"sun:05:00-sun:06:00", false, Window{}, false},
		{"xyz:05:00-sun:06:00", true, Window{}, false},
	} {
		got, ok := ParseWindow(tc.in, tc.weekly)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseWindow(%q, %v) = %+v, %v; want %+v, %v", tc.in, tc.weekly, got, ok, tc.want, tc.ok)
		}
	}
}

func TestWindowOverlapsAndNext(t *testing.T) {
	daily, _ := ParseWindow("23:30-00:30", false)
	monday, _ := ParseWindow("mon:00:00-mon:01:00", true)
	sunday, _ := ParseWindow("sun:05:00-sun:06:00", true)
	if !daily.Overlaps(monday) {
		t.Error("a daily window across midnight overlaps Monday's first hour")
	}
	if daily.Overlaps(sunday) {
		t.Error("23:30-00:30 does not overlap sun:05:00-sun:06:00")
	}
	tuesday := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) // a Tuesday
	if got, want := sunday.Next(tuesday), time.Date(2026, 11, 29, 5, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("next Sunday window after Tuesday noon: %v, want %v", got, want)
	}
	inside := time.Date(2026, 11, 29, 5, 30, 0, 0, time.UTC)
	if got := sunday.Next(inside); !got.Equal(inside) {
		t.Errorf("while the window is open, Next is now: %v", got)
	}
}
