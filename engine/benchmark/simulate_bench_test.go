package benchmark

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// BenchmarkSimulateScale is `latencylab sim` on the default profile for
// vLLM's default random workload (1,024 in / 128 out, rate inf) at growing
// sizes: drawing the prompts, the virtual-clock run and the metric maths.
// The goals: ≥ 30,000 sim-req/s at 10k, ns/req flat from 10k to 1M, and
// the 1M run in ≤ 60 s with a small heap (peak-heap-MB; the process's peak
// RSS is measured with /usr/bin/time on the CLI). Run one size at a time,
// e.g. -bench 'SimulateScale/n=10000$'.
func BenchmarkSimulateScale(b *testing.B) {
	corpus := textmodel.Compose(textmodel.ComposeRequest{
		Messages: []textmodel.Message{{Role: textmodel.RoleUser, Content: "serving latency"}}, ForcedTokens: 8192}).Text
	cfg := engine.DefaultConfig()
	for _, n := range []int{1_000, 10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			w := DefaultWorkload()
			w.NumRequests = n
			var peak uint64
			for b.Loop() {
				d, err := NewDataset(w, textmodel.Default(), corpus)
				if err != nil {
					b.Fatal(err)
				}
				r, err := Simulate(cfg, d, 0, w.Percentiles)
				if err != nil {
					b.Fatal(err)
				}
				if r.Completed != n {
					b.Fatalf("completed %d of %d", r.Completed, n)
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapSys)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "sim-req/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/req")
			b.ReportMetric(float64(peak)/(1<<20), "heap-sys-MB")
		})
	}
}
