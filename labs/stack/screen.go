package stack

import (
	"strings"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// screen is what the reader's page shows, read off the browser's
// arrivals: the text, and when and in how many bursts the words came.
type screen struct {
	text      string
	words     int
	firstWord time.Duration // valid when words > 0
	lastWord  time.Duration // the last arrival that added text
	bursts    int           // arrivals that added text
	// longestGap is the longest wait between two bursts, or before the
	// first one after the GPU's first token.
	longestGap time.Duration
	// longestFrom is when the longest wait began: the burst before it, or
	// the GPU's first token.
	longestFrom time.Duration
	// points is words on screen over time as a step line from (0, 0).
	points []labs.Point
}

// watch reads the arrivals up to time now (all of them when now < 0);
// firstToken is when the GPU made the first token, so the wait for the
// first burst counts from there.
func watch(arr []arrival, now, firstToken time.Duration) screen {
	s := screen{points: []labs.Point{{X: 0, Y: 0}}}
	var b strings.Builder
	prev := firstToken
	for _, a := range arr {
		if now >= 0 && a.at > now {
			break
		}
		if a.text == "" {
			continue
		}
		b.WriteString(a.text)
		words := len(strings.Fields(b.String()))
		if s.words == 0 && words > 0 {
			s.firstWord = a.at
		}
		s.bursts++
		s.lastWord = a.at
		if a.at-prev > s.longestGap {
			s.longestGap, s.longestFrom = a.at-prev, prev
		}
		prev = a.at
		if words != s.words {
			x := labs.Millis(a.at)
			s.points = append(s.points, labs.Point{X: x, Y: float64(s.words)}, labs.Point{X: x, Y: float64(words)})
			s.words = words
		}
	}
	s.text = b.String()
	return s
}
