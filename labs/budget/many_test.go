package budget

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// BenchmarkBatch500 times the largest batch (500 requests on the large
// tier at 50 req/s) on the virtual clock.
func BenchmarkBatch500(b *testing.B) {
	s, err := parse(b, labs.Values{knobRequests: 500.0, knobRate: 50.0, knobTier: "large", knobAnswer: 1000.0})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = simulate(b, s)
	}
}

// TestStallPlan: a slow share stalls exactly that share of the batch,
// rounded, and spreads the stalls over the five stages in turn.
func TestStallPlan(t *testing.T) {
	for _, tc := range []struct {
		n        int
		share    float64
		stalls   int
		perStage []int // min and max stalls in any one stage
	}{
		{200, 0.05, 10, []int{2, 2}},
		{200, 0.06, 12, []int{2, 3}},
		{200, 0.01, 2, []int{0, 1}},
		{200, 0, 0, []int{0, 0}},
		{10, 0.25, 3, []int{0, 1}},
		{500, 0.25, 125, []int{25, 25}},
	} {
		t.Run(fmt.Sprintf("%d at %v", tc.n, tc.share), func(t *testing.T) {
			plan := stallPlan(tc.n, tc.share)
			if len(plan) != tc.n {
				t.Fatalf("plan for %d requests has %d", tc.n, len(plan))
			}
			per := make([]int, len(stageNames))
			total := 0
			for _, k := range plan {
				if k >= 0 {
					per[k]++
					total++
				}
			}
			if total != tc.stalls {
				t.Errorf("%d stalls, want %d", total, tc.stalls)
			}
			if lo, hi := slices.Min(per), slices.Max(per); lo != tc.perStage[0] || hi != tc.perStage[1] {
				t.Errorf("stalls per stage %v, want between %d and %d", per, tc.perStage[0], tc.perStage[1])
			}
			if !slices.Equal(plan, stallPlan(tc.n, tc.share)) {
				t.Error("the same settings drew a different plan")
			}
		})
	}
}

// TestHeavyTailPresetSitsOnTheCliff holds the heavy-tail preset to its
// note and to the budget lesson's point that p95 sits on the boundary
// when exactly 5% of requests are slow: the p95 is a healthy request
// and the budget is met, p99 is a stall, and a 6% share moves the p95 to
// the stalls and misses the budget.
func TestHeavyTailPresetSitsOnTheCliff(t *testing.T) {
	vals := presetValues(t, tailPreset)
	at5 := last(runLab(t, vals))
	six := maps.Clone(vals)
	six[knobSlowChance] = 6.0
	at6 := last(runLab(t, six))
	st5, st6 := labtest.StatMap(t, at5), labtest.StatMap(t, at6)
	t.Logf("5%%: p95 %.0f ms, p99 %.0f ms; 6%%: p95 %.0f ms", st5[statP95], st5[statP99], st6[statP95])
	if st5[statP95] > 1000 || st5[statP99] < 12000 || st6[statP95] < 12000 {
		t.Errorf("5%% slow: p95 %.0f ms, p99 %.0f ms; 6%%: p95 %.0f ms; want p95 under the 1 s budget, p99 and the 6%% p95 past 12 s",
			st5[statP95], st5[statP99], st6[statP95])
	}
	if !strings.Contains(at5.Status, "Budget met") || !strings.Contains(at6.Status, "Budget missed") {
		t.Errorf("verdicts %q and %q: want met at 5%%, missed at 6%%", at5.Status, at6.Status)
	}
	labtest.CheckQuotes(t, "latency-budget", "ms", []labtest.Quote{
		{Text: "move the slow share from 5% to 6%: the p95 lands among the stalls", Got: st6[statP95], Lo: 12000, Hi: 13000},
	})
	var title string
	for _, tb := range at5.Tables {
		if strings.HasPrefix(tb.Title, "Stage times over 200 requests") {
			title = tb.Title
		}
	}
	if want := "stalls: guardrail 2, history 2, retrieval 2, order lookup 2, prompt and gateway 2"; !strings.HasSuffix(title, want) {
		t.Errorf("stage table %q: want it to end %q", title, want)
	}
}
