package engine

import (
	"testing"
	"time"
)

// BenchmarkSimulateSweep is the batching lab's sweep at the size issue 14
// asks to stay interactive (≤ 2 s): 3 policies × 16 rates × 1,000 requests
// of 512 in / 64 out, rates from a tenth to twice continuous batching's
// capacity on a burst, run one after another on one core.
func BenchmarkSimulateSweep(b *testing.B) {
	const n = 1000
	cfg := DefaultConfig()
	burst, err := Simulate(cfg, fixedRequests(1, n, 512, 64), SimOptions{})
	if err != nil {
		b.Fatal(err)
	}
	capacity := float64(n) / burst.Duration.Seconds()
	var workloads [][]Request
	for i := range 16 {
		rate := capacity * (0.1 + 1.9*float64(i)/15)
		workloads = append(workloads, poissonRequests(uint64(i+2), n, 512, 64, rate))
	}
	var worst time.Duration
	for b.Loop() {
		start := time.Now()
		for _, p := range []Policy{Sequential, Static, Continuous} {
			c := cfg
			c.Policy = p
			for _, w := range workloads {
				if _, err := Simulate(c, w, SimOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		}
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(worst.Seconds(), "worst-sweep-s")
}
