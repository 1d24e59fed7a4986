package batching

import (
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
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
