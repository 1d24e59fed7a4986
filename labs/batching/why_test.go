package batching

import (
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
				statTPOTP50: 0.01, statTPOTP95: 0.01, statITLMax: 0.01, statITLP99: 0.01, statThroughput: 0.01} {
				labtest.CheckFormula(t, labtest.StatOf(t, last, key), tol)
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
