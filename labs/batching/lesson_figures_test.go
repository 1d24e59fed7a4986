package batching

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/lessons"
)

// TestContinuousQueuesOnlyWhenFull checks the batching lesson's figures:
// continuous batching keeps TTFT near a step only while slots are free. The
// burst preset (32 requests, batches of 8) fills every slot, so even
// continuous batching leaves a p95 TTFT of seconds (the lesson says about
// 7.0 s, static about 10.9 s); the Poisson preset stays near 26 ms.
func TestContinuousQueuesOnlyWhenFull(t *testing.T) {
	presets := livePresets(t)
	tests := []struct {
		name           string
		preset         int
		policy         engine.Policy
		minP95, maxP95 float64
	}{
		{"burst, static", 0, engine.Static, 10_500, 11_300},
		{"burst, continuous: slots full", 0, engine.Continuous, 6_800, 7_200},
		{"poisson, continuous: slots free", 1, engine.Continuous, 10, 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := labs.Values{}
			for k, x := range presets[tc.preset].Values {
				v[k] = x
			}
			v[knobPolicy] = string(tc.policy)
			f := replayRun(t, v)
			labtest.CheckUnits(t, tc.name, f)
			p95, ok := statValue(f, statTTFTP95)
			if !ok {
				t.Fatal("no p95 TTFT stat")
			}
			if p95 < tc.minP95 || p95 > tc.maxP95 {
				t.Errorf("p95 TTFT %.1f ms, the lesson's figure needs %v..%v ms", p95, tc.minP95, tc.maxP95)
			}
		})
	}
}

// TestBatchOf32 holds the "A batch of 32" preset to its note: one batch of
// 32 decodes about 22 times the tokens a second of a batch of 1, while
// each token takes a little longer.
func TestBatchOf32(t *testing.T) {
	var preset labs.Preset
	for _, p := range livePresets(t) {
		if p.Name == "A batch of 32 (then try 1)" {
			preset = p
		}
	}
	if preset.Name == "" {
		t.Fatal("no batch-of-32 preset")
	}
	run := func(maxBatch float64, changes ...labs.Values) (throughput, tpot float64) {
		v := labs.Values{}
		for k, x := range preset.Values {
			v[k] = x
		}
		for _, c := range changes {
			for k, x := range c {
				v[k] = x
			}
		}
		v[knobMaxBatch] = maxBatch
		f := replayRun(t, v)
		labtest.CheckUnits(t, preset.Name, f)
		tp, ok1 := statValue(f, statThroughput)
		tpot, ok2 := statValue(f, statTPOTP50)
		if !ok1 || !ok2 {
			t.Fatalf("batch %v: no throughput or TPOT stat", maxBatch)
		}
		return tp, tpot
	}
	tp32, tpot32 := run(32)
	tp1, tpot1 := run(1)
	t.Logf("batch 32: %.0f tok/s, TPOT %.2f ms; batch 1: %.0f tok/s, TPOT %.2f ms; ratio %.1f×", tp32, tpot32, tp1, tpot1, tp32/tp1)
	// With the lesson table's 2,000 tokens of context each, the KV-cache
	// reads grow and the gain falls into the usual 10-20x.
	long := labs.Values{knobPrompt: 2000.0}
	long32, _ := run(32, long)
	long1, _ := run(1, long)
	t.Logf("2,000-token prompts: batch 32 %.0f tok/s, batch 1 %.0f tok/s, ratio %.1f×", long32, long1, long32/long1)
	for _, c := range []struct {
		what        string
		got, lo, hi float64
	}{
		{"batch-32 throughput (note: about 2,900 tok/s)", tp32, 2600, 3200},
		{"batch-1 throughput (note: about 130 tok/s)", tp1, 120, 140},
		{"ratio (note: some 22 times)", tp32 / tp1, 20, 24},
		{"batch-32 TPOT (note: about 10 ms)", tpot32, 9, 11},
		{"batch-1 TPOT (note: 7.7 ms)", tpot1, 7.5, 7.9},
		{"batch-32 throughput, 2,000-token prompts (lesson: about 1,700 tok/s)", long32, 1550, 1850},
		{"ratio, 2,000-token prompts (lesson: some 13 times)", long32 / long1, 12.5, 14},
	} {
		if c.got < c.lo || c.got > c.hi {
			t.Errorf("%s is %.2f, want %v..%v", c.what, c.got, c.lo, c.hi)
		}
	}
	// The batching lesson quotes the same run.
	lesson, ok := lessons.Get("batching")
	if !ok {
		t.Fatal("no batching lesson")
	}
	for _, quote := range []string{"about 130 tokens a second", "a token every 7.7 ms", "about <strong>2,900 tokens a second</strong>",
		"about <strong>130</strong>", "some 22 times", "about 10 ms apart",
		"about 1,700 tokens a second, some 13 times"} {
		if !strings.Contains(lesson.HTML, quote) {
			t.Errorf("the batching lesson no longer says %q, which this preset's run holds", quote)
		}
	}
}
