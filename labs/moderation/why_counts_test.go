package moderation

import (
	"regexp"
	"strconv"
	"testing"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// whyParts reads the whole numbers re captures from a why text.
func whyParts(t *testing.T, why, re string) []int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(why)
	if m == nil {
		t.Fatalf("no %q in %q", re, why)
	}
	out := make([]int, len(m)-1)
	for i, s := range m[1:] {
		out[i], _ = strconv.Atoi(s)
	}
	return out
}

// The count panels' sums hold by construction; what each policy does to
// their parts is the lesson, and that is what this holds: nothing checked
// and everything shown without moderation, one check of the whole held
// answer, every unsafe token kept back by the buffered policies but not by
// stream-then-moderate, and an abort that stops generation early.
func TestWhyCountsSplitByPolicy(t *testing.T) {
	type parts struct{ answerChecks, generated, unseen, unsafe, keptBack int }
	got := map[mod.Policy]parts{}
	for _, p := range mod.Policies() {
		frames, _ := runLab(t, labs.Values{knobPolicy: string(p)})
		last := frames[len(frames)-1]
		gen := labtest.StatOf(t, last, statGenerated)
		leak := whyParts(t, labtest.StatOf(t, last, statLeaked).Why, `(\d+) unsafe tokens? written − (\d+) kept back`)
		got[p] = parts{
			answerChecks: whyParts(t, labtest.StatOf(t, last, statChecks).Why, `checks of the answer (\d+)`)[0],
			generated:    int(gen.Value),
			unseen:       whyParts(t, gen.Why, `written but never shown (\d+)`)[0],
			unsafe:       leak[0], keptBack: leak[1],
		}
	}
	none, whole := got[mod.NoModeration], got[mod.ModerateThenSend]
	if none.answerChecks != 0 || none.unseen != 0 || none.keptBack != 0 || none.unsafe == 0 {
		t.Errorf("no moderation: %+v, want no checks, everything shown, every unsafe token shown", none)
	}
	if whole.answerChecks != 1 || whole.unseen != whole.generated || whole.keptBack != whole.unsafe {
		t.Errorf("moderate then send: %+v, want one check, the answer never shown (the fallback is) and every unsafe token kept back", whole)
	}
	for _, p := range []mod.Policy{mod.BufferedWindow, mod.AbortMidStream} {
		if g := got[p]; g.answerChecks < 2 || g.keptBack != g.unsafe {
			t.Errorf("%s: %+v, want a check per window and every unsafe token kept back", p, g)
		}
	}
	if s := got[mod.StreamThenModerate]; s.keptBack >= s.unsafe {
		t.Errorf("stream then moderate: %+v, want unsafe tokens shown before the check caught them", s)
	}
	if a := got[mod.AbortMidStream]; a.generated >= none.generated {
		t.Errorf("abort: %d tokens generated, want fewer than the %d written without moderation", a.generated, none.generated)
	}
}
