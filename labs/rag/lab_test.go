package rag

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// runLab runs the lab once on the fake desk, on virtual time.
var runLab = labtest.RunsOnFakeDesk(New)

// More chunks make a longer prompt, and a longer prompt a later first
// token, in the sweep; every bar's parts add up to its prompt.
func TestSweepGrowsWithK(t *testing.T) {
	for _, tier := range []string{pipelinelab.TierSmall, pipelinelab.TierMedium, pipelinelab.TierLarge} {
		t.Run(tier, func(t *testing.T) {
			fs := runLab(t, labs.Values{knobTier: tier})
			last := fs[len(fs)-1]
			sc := labtest.Chart(t, last, chartTTFT)
			pts := sc.Series[0].Points
			if len(pts) != len(sweepK) {
				t.Fatalf("%d sweep points, want %d", len(pts), len(sweepK))
			}
			for i := 1; i < len(pts); i++ {
				if pts[i].X <= pts[i-1].X {
					t.Errorf("k=%d: prompt %v tokens, not above k=%d's %v", sweepK[i], pts[i].X, sweepK[i-1], pts[i-1].X)
				}
				if pts[i].Y < pts[i-1].Y {
					t.Errorf("k=%d: TTFT %v ms below k=%d's %v", sweepK[i], pts[i].Y, sweepK[i-1], pts[i-1].Y)
				}
			}
			if pts[len(pts)-1].Y <= pts[0].Y {
				t.Errorf("TTFT flat over the sweep: %v", pts)
			}
			if len(sc.Series) < 3 || !sc.Series[1].Dashed {
				t.Errorf("no fitted line: %+v", sc.Series)
			}
			bars := labtest.Chart(t, last, chartParts).Bars
			if len(bars) != len(sweepK)+1 {
				t.Fatalf("%d bars", len(bars))
			}
			for i, b := range bars {
				sum := 0.0
				for _, s := range b.Segments {
					sum += s.Value
				}
				want := labtest.Stat(t, last, statPromptTokens)
				if i > 0 {
					want = pts[i-1].X
				}
				if sum != want {
					t.Errorf("bar %s: parts sum to %v, prompt has %v tokens", b.Label, sum, want)
				}
			}
		})
	}
}

// The knobs move the parts they name, and the live TTFT sits near the
// sweep's line (same engine model, idle engine).
func TestKnobsMoveTheirParts(t *testing.T) {
	cases := []struct {
		name                  string
		vals                  labs.Values
		chunks, history, rows bool
	}{
		{"no context", labs.Values{knobTopK: 0.0, knobHistory: 0.0}, false, false, false},
		{"top-5", labs.Values{knobTopK: 5.0, knobHistory: 4.0}, true, true, true},
		{"top-20 long history", labs.Values{knobTopK: 20.0, knobHistory: 20.0, knobSystem: 600.0}, true, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			last := runLab(t, tc.vals)
			f := last[len(last)-1]
			p, err := labtest.Inert(t, define).Params(tc.vals)
			if err != nil {
				t.Fatal(err)
			}
			if got := labtest.Stat(t, f, statChunksTokens) > 0; got != tc.chunks {
				t.Errorf("chunk tokens %v", labtest.Stat(t, f, statChunksTokens))
			}
			if got := labtest.Stat(t, f, statHistoryTokens) > 0; got != tc.history {
				t.Errorf("history tokens %v", labtest.Stat(t, f, statHistoryTokens))
			}
			if got := len(f.Tables[0].Rows); (got > 0) != tc.rows || (tc.rows && got != p.topK) {
				t.Errorf("%d chunk rows", got)
			}
			if sys := labtest.Stat(t, f, statSystemTokens); sys < float64(p.system) {
				t.Errorf("system prompt %v tokens, asked for at least %v", sys, p.system)
			}
			if labtest.Stat(t, f, statTTFT) <= 0 || f.Text == nil || f.Text.Body == "" {
				t.Errorf("ttft %v, text %+v", labtest.Stat(t, f, statTTFT), f.Text)
			}
		})
	}
}

// With passages in the prompt the answer is written from them.
func TestAnswerDrawsOnPassages(t *testing.T) {
	fs := runLab(t, labs.Values{knobTopK: 5.0, knobQuestion: "refund"})
	f := fs[len(fs)-1]
	found := false
	for _, row := range f.Tables[0].Rows {
		for _, sentence := range strings.Split(row[4], ". ") {
			if len(sentence) > 20 && strings.Contains(f.Text.Body, strings.TrimSuffix(sentence, ".")) {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("answer %q quotes none of the passages", f.Text.Body)
	}
}

func TestValidation(t *testing.T) {
	l := labtest.Inert(t, define)
	for _, raw := range []labs.Values{{knobTopK: 21.0}, {knobHistory: -1.0}, {knobQuestion: "weather"}, {knobTier: "xl"}, {knobSystem: "lots"}} {
		labtest.ExpectNotRun(t, l, raw)
	}
}

func TestCancel(t *testing.T) {
	// Cancel as the answer starts streaming.
	labtest.CancelMidRun(t, labtest.OnFakeDesk(t, New), labs.Values{}, func(f labs.Frame) bool { return f.Text != nil })
}
