package levers

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// Every headline figure's formula comes to the figure, on both clocks:
// within 1% for times, which are exactly their parts plus the trace's
// hand-overs, and 5% for the shorter answer's saving, whose two answers
// also differ a little in first token and step time (the panel says so).
func TestWhyMatchesTheRun(t *testing.T) {
	for _, path := range []struct {
		name  string
		limit time.Duration
	}{{"wall clock", time.Hour}, {"virtual clock", time.Millisecond}} {
		t.Run(path.name, func(t *testing.T) {
			frames, _ := runLab(t, labs.Values{}, path.limit)
			last := frames[len(frames)-1]
			for key, tol := range map[string]float64{statBaseFirst: 0.01, statBestFirst: 0.01, statBaseTotal: 0.01,
				statBestTotal: 0.01, statShorterSaves: 0.05, statAnswerCall: 0.01, statAnswerSmall: 0.01, statAnswerShort: 0.01} {
				labtest.CheckFormula(t, labtest.StatOf(t, last, key), tol)
			}
		})
	}
}

// sameRe finds the figure just before a formula's "≈" and its result.
var sameRe = regexp.MustCompile(`([0-9][0-9,.]*) ≈ ([0-9][0-9,.]*)`)

// On the hosted preset the shorter answer's saving measures less than its
// tokens × time per token, and the panel says by how much in words: no
// figure in any formula is a negative "other", and no formula is one
// figure said twice (the cache hit's steps before the model).
func TestHostedWhyHasNoNegativeRest(t *testing.T) {
	hosted := labtest.PresetWith(t, labtest.Inert(t, define), hostedPreset)
	frames, _ := runLab(t, hosted(nil), DefaultWallLimit)
	last := frames[len(frames)-1]
	for _, st := range last.Stats {
		if strings.Contains(st.Why, "the other -") || strings.Contains(st.Why, "≈ -") {
			t.Errorf("%s: %s", st.Key, st.Why)
		}
		// A single figure that "comes to" itself explains nothing.
		if m := sameRe.FindStringSubmatch(st.Why); m != nil && m[1] == m[2] {
			t.Errorf("%s: %q adds nothing: %s", st.Key, m[0], st.Why)
		}
	}
	if w := labtest.StatOf(t, last, statShorterSaves).Why; !strings.Contains(w, "less than the terms add up to: the difference is") {
		t.Errorf("the saving's tokens × time per token overshoot what the run measured; the formula does not say so: %s", w)
	}
}
