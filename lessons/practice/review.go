package practice

import "time"

// ReviewIntervals are the Leitner boxes' waits: a drill in box i (from 1)
// is due ReviewIntervals[i-1] after its last attempt.
var ReviewIntervals = []time.Duration{24 * time.Hour, 3 * 24 * time.Hour, 7 * 24 * time.Hour, 14 * 24 * time.Hour, 30 * 24 * time.Hour}

// Review moves a drill between boxes after an attempt scored score (0..1)
// at time at: full marks move it up a box (to at most the last), a partial
// score keeps it where it is, a miss sends it back to box 1. box 0 means
// the drill was never attempted. It returns the new box and when the
// drill is next due.
func Review(box int, score float64, at time.Time) (int, time.Time) {
	switch {
	case score >= 1:
		box = min(box+1, len(ReviewIntervals))
	case score <= 0 || box < 1:
		box = 1
	}
	return box, at.Add(ReviewIntervals[box-1])
}
