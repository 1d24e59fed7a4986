package cancellation

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// The figures' formulas come to the figures: the tokens generated split
// exactly at the cut, the cost saved is exact up to its rounding, and the
// tokens after the cut are the generation rate × the time until the
// engine stopped, within 10% (the engine's steps are not evenly paced).
// The reader's counts are exact: the tokens delivered are what the
// settings let through (where the reader left, where the stream broke, or
// every token generated), and the tokens saved are the tokens delivered,
// counted apart by the pipeline and the reader.
func TestWhyMatchesTheRun(t *testing.T) {
	for name, v := range map[string]map[string]any{
		"stop, passed upstream":     vals(20, 0, 200, "medium", true),
		"stop, not passed upstream": vals(20, 0, 200, "medium", false),
		"stream breaks":             vals(0, 30, 200, "small", true),
		"read to the end":           vals(0, 0, 120, "small", true),
	} {
		t.Run(name, func(t *testing.T) {
			frames := runLab(t, v, nil)
			last := frames[len(frames)-1]
			for _, key := range []string{statGenerated, statDelivered, statSaved} {
				labtest.CheckFormula(t, labtest.StatOf(t, last, key), 0)
			}
			labtest.CheckFormula(t, labtest.StatOf(t, last, statCostSaved), 0.01)
			if v[knobStopAfter] != 0.0 || v[knobFailAfter] != 0.0 { // a run read to the end has no cut
				labtest.CheckFormula(t, labtest.StatOf(t, last, statAfter), 0.10)
			}
		})
	}
}

// "After you left" is counted once, as every token the engine wrote
// beyond those the reader got, so the status, the split of the tokens
// generated, the card of tokens after the cut and the tokens that reached
// nobody all give the same number, and the two sides add up to the total.
// When nothing was saved, the cost card says so in words.
func TestOneCountOfTokensAfterTheReaderLeft(t *testing.T) {
	for _, tc := range []struct {
		name      string
		v         labs.Values
		saved     bool // some tokens were never generated
		afterWord string
	}{
		{"left, not passed upstream", vals(20, 0, 400, "medium", false), false, "after you left"},
		{"left, passed upstream", vals(20, 0, 400, "medium", true), true, "after you left"},
		{"stream broke", vals(0, 30, 200, "small", false), false, "after the break"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames := runLab(t, tc.v, nil)
			last := frames[len(frames)-1]
			gen := int(labtest.Stat(t, last, statGenerated))
			got := int(labtest.Stat(t, last, statDelivered))
			after := int(labtest.Stat(t, last, statAfter))
			if after != gen-got {
				t.Errorf("%d tokens after the reader's stream ended, want generated %d − delivered %d = %d", after, gen, got, gen-got)
			}
			if m := afterRe.FindStringSubmatch(last.Status); m == nil || m[1] != strconv.Itoa(after) || !strings.Contains(m[0], tc.afterWord) {
				t.Errorf("status does not give %d tokens %s: %s", after, tc.afterWord, last.Status)
			}
			split := fmt.Sprintf("before the reader's stream ended %d + after it %d ", got, after)
			if w := labtest.StatOf(t, last, statGenerated).Why; !strings.Contains(w, split) {
				t.Errorf("generated's formula lacks %q: %s", split, w)
			}
			if w := labtest.StatOf(t, last, statDelivered).Why; after > 0 && !strings.Contains(w, labs.Count(after, "token")+" reached nobody") {
				t.Errorf("delivered's formula does not say %d tokens reached nobody: %s", after, w)
			}
			// The formula speaks of a cancel only where one was sent.
			sent := tc.v[knobPropagate] == true
			if w := labtest.StatOf(t, last, statAfter).Why; strings.Contains(w, "the cancel reached the engine") != sent {
				t.Errorf("after's formula speaks of a cancel = %v, want %v: %s", !sent, sent, w)
			}
			cost := labtest.StatOf(t, last, statCostSaved)
			if nothing := strings.Contains(cost.Note, "nothing saved") && strings.Contains(cost.Why, "nothing was saved"); nothing == tc.saved ||
				strings.Contains(cost.Note, "0 of") {
				t.Errorf("cost saved $%v: note %q, why %q: want plain words when nothing was saved", cost.Value, cost.Note, cost.Why)
			}
		})
	}
}

// afterRe finds the count of tokens after the cut in a final status.
var afterRe = regexp.MustCompile(`(\d+) (?:of them |generated )?after (?:you left|the break)`)

// The step trace stamps a token when its step ends, on the engine's clock;
// the reader gets it at its modelled time. The two can put the last token
// read a moment after the cut, which must not move it to the other side.
func TestTokensAfterCutCountsWhatNobodyRead(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		delivered, generated, want int
		cut                        bool
	}{
		{"left after 20 of 400", 20, 400, 380, true},
		{"engine stopped at once", 20, 21, 1, true},
		{"read everything", 0, 120, 0, false},
		{"nothing more written", 30, 30, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tokensAfterCut(clientView{delivered: tc.delivered}, tc.generated, tc.cut); got != tc.want {
				t.Errorf("tokensAfterCut = %d, want %d", got, tc.want)
			}
		})
	}
}

// The tokens delivered are summed from the chunks read, grouped by their
// size, not stated as the stop setting itself ("after 20 ≈ 20 tokens").
func TestDeliveredIsASumOfChunks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts []float64 // running count of tokens after each chunk
		expr   string
		tokens float64
	}{
		{"one token a chunk", []float64{0, 1, 2, 3}, "3 chunks × 1 token", 3},
		{"a last chunk of two", []float64{0, 1, 2, 4}, "2 chunks × 1 token + 1 chunk × 2 tokens", 4},
		{"an empty delta", []float64{0, 3, 3, 1003}, "1 chunk × 3 tokens + 1 chunk × 1,000 tokens", 1003},
		{"nothing read", []float64{}, "no chunk", 0},
	} {
		var pts []labs.Point
		for i, y := range tc.counts {
			pts = append(pts, labs.Point{X: float64(i), Y: y})
		}
		expr, tokens := chunkSum(pts)
		if expr != tc.expr || tokens != tc.tokens {
			t.Errorf("%s: chunkSum = %q, %v; want %q, %v", tc.name, expr, tokens, tc.expr, tc.tokens)
		}
	}
	for _, v := range []labs.Values{vals(20, 0, 200, "medium", true), vals(0, 30, 200, "small", true)} {
		frames := runLab(t, v, nil)
		w := labtest.StatOf(t, frames[len(frames)-1], statDelivered).Why
		if !strings.Contains(w, "chunks × 1 token ≈") || strings.Contains(w, "after 20 ≈") || strings.Contains(w, "after 30 ≈") {
			t.Errorf("delivered's formula is not a sum of chunks: %s", w)
		}
	}
}
