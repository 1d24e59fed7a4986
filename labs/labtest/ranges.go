package labtest

import "testing"

// Range is a figure a preset's note states, with the band it must land in.
type Range struct {
	What   string // what the note says, e.g. "first word (about 250 ms)"
	Got    float64
	Lo, Hi float64
}

// CheckRanges fails t for every figure outside its band, so a note's
// figures are held by the run that makes them.
func CheckRanges(t testing.TB, unit string, rs []Range) {
	t.Helper()
	for _, r := range rs {
		if r.Got < r.Lo || r.Got > r.Hi {
			t.Errorf("%s: %.1f %s, want %v–%v %s", r.What, r.Got, unit, r.Lo, r.Hi, unit)
		}
	}
}
