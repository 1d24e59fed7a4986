package budget

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// runLab runs the lab once on the fake desk, on virtual time.
var runLab = labtest.RunsOnFakeDesk(New)

// The waterfall's context stage is the slowest lookup when parallel and
// the sum when sequential, on the wall clock (virtual inside the bubble).
func TestParallelLookupsTakeTheSlowest(t *testing.T) {
	cases := []struct {
		lookups string
		want    float64
	}{
		{"parallel", 120},
		{"sequential", 210},
	}
	for _, tc := range cases {
		t.Run(tc.lookups, func(t *testing.T) {
			fs := runLab(t, labs.Values{knobLookups: tc.lookups, knobRequests: 20.0, knobAnswer: 50.0})
			last := fs[len(fs)-1]
			if got := labtest.Stat(t, last, statLookups); math.Abs(got-tc.want) > 1 {
				t.Errorf("lookups %v ms, want %v", got, tc.want)
			}
			wf := labtest.Chart(t, last, chartWaterfall)
			if len(wf.Rows) != len(rows) {
				t.Fatalf("%d waterfall rows, want %d", len(wf.Rows), len(rows))
			}
			for _, r := range wf.Rows {
				if len(r.Spans) != 1 {
					t.Errorf("row %s has %d spans", r.Label, len(r.Spans))
				}
			}
			// First word = guardrail 80 + lookups + gateway 15 + model TTFT.
			ttft := wf.Rows[5].Spans[0]
			fw := labtest.Stat(t, last, statFirstWord)
			if want := 80 + tc.want + 15 + (ttft.End - ttft.Start); math.Abs(fw-want) > 2 {
				t.Errorf("first word %v ms, want about %v", fw, want)
			}
		})
	}
}

// The histogram's marks and the percentile stats are the nearest-rank
// percentiles of the batch's own samples.
func TestBatchPercentilesMatchSamples(t *testing.T) {
	s, err := parse(t, labs.Values{})
	if err != nil {
		t.Fatal(err)
	}
	s.requests, s.slowShare, s.slow = 400, 0.05, 12*time.Second
	b := simulate(t, s)
	fw := b.firstWords()
	sorted := append([]float64(nil), fw...)
	sortFloats(sorted)
	for _, p := range []float64{50, 95, 99} {
		idx := int(math.Ceil(p/100*float64(len(sorted)))) - 1
		if got := pipelinelab.Percentile(fw, p); got != sorted[idx] {
			t.Errorf("p%v = %v, direct %v", p, got, sorted[idx])
		}
	}
	// One in twenty stalls for 12 s: p99 is far above the mean and p50.
	if p99, mean := pipelinelab.Percentile(fw, 99), pipelinelab.Mean(fw); p99 < 10*mean/2 || p99 < 10000 {
		t.Errorf("p99 %v, mean %v: the stalls do not show", p99, mean)
	}
	h := pipelinelab.Histogram(fw, 40, nil)
	total := 0
	for _, c := range h.Counts {
		total += c
	}
	if total != len(fw) {
		t.Errorf("histogram holds %d of %d samples", total, len(fw))
	}
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

func simulate(t testing.TB, s settings) batch {
	t.Helper()
	spec, err := pipelinelab.LookupTier(s.tier)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := spec.EngineConfig()
	if err != nil {
		t.Fatal(err)
	}
	prompt := make([]int, 1200)
	out := make([]int, s.answerTokens)
	for i := range out {
		out[i] = 1000 + i
	}
	for i := range prompt {
		prompt[i] = 500 + i
	}
	b, err := simulateMany(s, cfg, engineReq(prompt, out), engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Parallel lookups compose as the slowest and sequential as the sum in
// the batch too, with the guardrail in the group when alongside.
func TestComposeMatchesThePipeline(t *testing.T) {
	sm := sample{guard: 80 * time.Millisecond, history: 30 * time.Millisecond, retrieval: 120 * time.Millisecond,
		order: 60 * time.Millisecond, gateway: 15 * time.Millisecond}
	cases := []struct {
		parallel, along bool
		pre, lookups    time.Duration
	}{
		{true, false, 215 * time.Millisecond, 120 * time.Millisecond},
		{false, false, 305 * time.Millisecond, 210 * time.Millisecond},
		{true, true, 135 * time.Millisecond, 120 * time.Millisecond},
		{false, true, 305 * time.Millisecond, 290 * time.Millisecond},
	}
	for _, tc := range cases {
		pre, lk := compose(settings{parallel: tc.parallel, guardAlong: tc.along}, sm)
		if pre != tc.pre || lk != tc.lookups {
			t.Errorf("parallel %v alongside %v: pre %v lookups %v, want %v %v", tc.parallel, tc.along, pre, lk, tc.pre, tc.lookups)
		}
	}
}

// The verdict flips exactly at the percentile: a budget equal to it
// passes, a millisecond less fails.
func TestBudgetFlipsAtThreshold(t *testing.T) {
	first := runLab(t, labs.Values{knobRequests: 100.0})
	p95 := labtest.Stat(t, first[len(first)-1], statP95)
	cases := []struct {
		budget float64
		want   string
	}{
		{math.Ceil(p95) + 50, "met"},
		{math.Floor(p95) - 50, "missed"},
	}
	for _, tc := range cases {
		fs := runLab(t, labs.Values{knobRequests: 100.0, knobBudgetMS: tc.budget})
		last := fs[len(fs)-1]
		card := labtest.StatOf(t, last, statJudged)
		if !strings.HasPrefix(card.Label, "Budget "+tc.want+":") || !strings.Contains(last.Status, "Budget "+tc.want+":") {
			t.Errorf("budget %v with p95 %v: card %q, status %q; want both to say %q", tc.budget, p95, card.Label, last.Status, tc.want)
		}
		if last.Missed != (tc.want == "missed") {
			t.Errorf("budget %v with p95 %v: frame Missed=%v, want it set exactly when the budget is missed", tc.budget, p95, last.Missed)
		}
		if got := labtest.Stat(t, last, statP95); card.Value != got {
			t.Errorf("judged card shows %v, the run's p95 is %v", card.Value, got)
		}
	}
}

func TestValidation(t *testing.T) {
	l := labtest.Inert(t, define)
	cases := []labs.Values{
		{knobRequests: 5000.0},
		{knobTier: "huge"},
		{knobSpread: -1.0},
		{knobPercentile: "42"},
	}
	for _, raw := range cases {
		labtest.ExpectNotRun(t, l, raw)
	}
}

// Cancelling mid-run returns the context's error and emits nothing after.
func TestCancel(t *testing.T) {
	labtest.CancelMidRun(t, labtest.OnFakeDesk(t, New), labs.Values{}, func(f labs.Frame) bool {
		return len(f.Charts) > 0 && len(f.Charts[0].Rows) > 0 && len(f.Charts[0].Rows[1].Spans) > 0 // after the history lookup
	})
}

// TestGuessFollowsTheBudgetPercentile: the guess is compared with the
// percentile the budget is judged at, so the heavy-tail preset, judged at
// p99, compares the guess with the p99, and the card's verdict matches it.
func TestGuessFollowsTheBudgetPercentile(t *testing.T) {
	l := labtest.Inert(t, define)
	if l.Info().PredictionStat != statJudged {
		t.Fatalf("the guess is compared with %q, not the judged percentile", l.Info().PredictionStat)
	}
	for _, p := range l.Presets() {
		fs := runLab(t, p.Values)
		last := fs[len(fs)-1]
		labtest.CheckUnits(t, p.Name, last)
		card := labtest.StatOf(t, last, statJudged)
		want := statP95
		if p.Values[knobPercentile] == "99" {
			want = statP99
		}
		if got := labtest.Stat(t, last, want); card.Value != got {
			t.Errorf("%s: judged card %v, %s is %v", p.Name, card.Value, want, got)
		}
		budget := p.Values[knobBudgetMS].(float64)
		verdict := "missed"
		if card.Value <= budget {
			verdict = "met"
		}
		if !strings.HasPrefix(card.Label, "Budget "+verdict+":") {
			t.Errorf("%s: %v ms against %v ms, yet the card says %q", p.Name, card.Value, budget, card.Label)
		}
	}
}
