package batching

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// Every live preset's figures carry their formulas, each from the run's
// own requests and steps: TTFT as queue + prefill and the total following
// the last request add up exactly (0.5%, the stats' rounding); TPOT and
// the longest gap and the p99 gap split into steps and the time between them (1%);
// throughput as tokens per step × steps per second × busy share is exact
// when every step of the run is this run's (1%).
func TestWhyMatchesTheRun(t *testing.T) {
	for _, p := range livePresets(t) {
		t.Run(p.Name, func(t *testing.T) {
			frames := liveRun(t, p.Values)
			last := frames[len(frames)-1]
			for key, tol := range map[string]float64{statTTFTP50: 0.005, statTTFTP95: 0.005, statTotal: 0.005,
				statTPOTP50: 0.01, statTPOTP95: 0.01, statITLMax: 0.01, statITLP99: 0.01, statThroughput: 0.01,
				statPreempt: 0, statCompleted: 0} {
				labtest.CheckFormula(t, labtest.StatOf(t, last, key), tol)
			}
			// The split is shown even when the engine never sat idle, so
			// the panel says why rather than "7.99 ≈ 7.99 ms".
			for _, key := range []string{statTPOTP50, statTPOTP95, statITLMax, statITLP99} {
				if why := labtest.StatOf(t, last, key).Why; !strings.Contains(why, "time between steps") {
					t.Errorf("%s: the split into steps and the time between them is missing: %q", key, why)
				}
			}
		})
	}
}

// The sweep's figures are ratios of the run's own counts and times: exact
// up to the stats' rounding.
func TestSweepWhyMatchesTheRun(t *testing.T) {
	frames := runSweepFrames(t, mustNew(t, Config{}), sweepValues(nil))
	last := frames[len(frames)-1]
	for _, st := range last.Stats {
		labtest.CheckFormula(t, st, 0.01)
	}
}

// The preemptions' formula adds up the evicting steps exactly, and names
// the cache's size and how full it got: on the default cache nothing is
// evicted and the cache never fills; on one of 120 blocks the live
// preset's burst runs out, and the cache was full when it did.
func TestWhyOfPreemptions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		blocks int
		evicts bool
	}{{"the profile's cache", 0, false}, {"a 120-block cache", 120, true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := replayRun(t, livePresets(t)[0].Values, func(s *settings) { s.engine.NumGPUBlocks = tc.blocks })
			st := labtest.StatOf(t, f, statPreempt)
			labtest.CheckFormula(t, st, 0)
			if got := st.Value > 0; got != tc.evicts {
				t.Fatalf("preemptions = %v, want some: %v", st.Value, tc.evicts)
			}
			full := strings.Contains(st.Why, "it held 100%")
			if full != tc.evicts {
				t.Errorf("the cache filled: %v, want %v (%q)", full, tc.evicts, st.Why)
			}
			labtest.CheckFormula(t, labtest.StatOf(t, f, statCompleted), 0)
		})
	}
}
