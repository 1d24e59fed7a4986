package practice

import (
	"testing"
	"time"
)

func TestReview(t *testing.T) {
	at := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, c := range []struct {
		box     int
		score   float64
		wantBox int
		wait    time.Duration
	}{
		{0, 1, 1, day}, {0, 0, 1, day}, {0, 0.5, 1, day},
		{1, 1, 2, 3 * day}, {2, 1, 3, 7 * day}, {3, 1, 4, 14 * day}, {4, 1, 5, 30 * day}, {5, 1, 5, 30 * day},
		{4, 0.5, 4, 14 * day}, {4, 0, 1, day}, {5, 0.2, 5, 30 * day},
	} {
		box, due := Review(c.box, c.score, at)
		if box != c.wantBox || due.Sub(at) != c.wait {
			t.Errorf("Review(%d, %g) = box %d due +%v; want box %d due +%v", c.box, c.score, box, due.Sub(at), c.wantBox, c.wait)
		}
	}
}
