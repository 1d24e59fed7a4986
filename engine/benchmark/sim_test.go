package benchmark

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/textmodel"
)

func simWorkload(n, conc int) ([]Request, Workload) {
	w := DefaultWorkload()
	w.NumRequests, w.InputLen, w.OutputLen, w.MaxConcurrency = n, 256, 32, conc
	reqs, err := Sample(w, textmodel.Default(), testCorpus)
	if err != nil {
		panic(err)
	}
	return reqs, w
}

func TestRunSimMetricsAreConsistent(t *testing.T) {
	reqs, w := simWorkload(64, 0)
	outs, dur, err := RunSim(engine.DefaultConfig(), reqs, w.MaxConcurrency)
	if err != nil {
		t.Fatal(err)
	}
	r := Compute(outs, dur, []float64{50, 99})
	if r.Completed != 64 || r.TotalOutput != 64*32 {
		t.Fatalf("completed %d, output %d; want 64 and %d", r.Completed, r.TotalOutput, 64*32)
	}
	for _, o := range outs {
		if len(o.ITL) != o.OutputTokens-1 {
			t.Fatalf("%d gaps for %d tokens", len(o.ITL), o.OutputTokens)
		}
		var sum = o.TTFT
		for _, g := range o.ITL {
			sum += g
		}
		if sum != o.Latency {
			t.Fatalf("TTFT + ITLs = %v, E2EL %v", sum, o.Latency)
		}
	}
	if !(r.TTFT.Mean > 0 && r.TPOT.Mean > 0 && r.E2EL.Mean > r.TTFT.Mean) {
		t.Fatalf("implausible result %+v", r)
	}
}

// With a concurrency cap the engine never runs more than the cap, so
// per-request latency falls and the run takes longer than uncapped.
func TestRunSimMaxConcurrency(t *testing.T) {
	reqs, _ := simWorkload(64, 0)
	free, freeDur, err := RunSim(engine.DefaultConfig(), reqs, 0)
	if err != nil {
		t.Fatal(err)
	}
	capped, cappedDur, err := RunSim(engine.DefaultConfig(), reqs, 4)
	if err != nil {
		t.Fatal(err)
	}
	a, b := Compute(free, freeDur, nil), Compute(capped, cappedDur, nil)
	if got := maxOverlap(capped); got > 4 {
		t.Fatalf("%d requests in flight at once with cap 4", got)
	}
	if got := maxOverlap(free); got <= 4 {
		t.Fatalf("uncapped run had only %d in flight: the test proves nothing", got)
	}
	if !(b.TTFT.Mean < a.TTFT.Mean && cappedDur > freeDur) {
		t.Fatalf("cap 4: TTFT %.1f ms, duration %v; uncapped: TTFT %.1f ms, duration %v",
			b.TTFT.Mean, cappedDur, a.TTFT.Mean, freeDur)
	}
}

// maxOverlap is the largest number of requests in flight at one instant;
// a request ending exactly when another starts does not overlap it.
func maxOverlap(outs []Output) int {
	type ev struct {
		t     time.Duration
		delta int
	}
	var evs []ev
	for _, o := range outs {
		evs = append(evs, ev{o.Start, 1}, ev{o.Start + o.Latency, -1})
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		return cmp.Compare(a.delta, b.delta) // ends before starts
	})
	cur, peak := 0, 0
	for _, e := range evs {
		cur += e.delta
		peak = max(peak, cur)
	}
	return peak
}

// BenchmarkSimDefaultWorkload times what `latencylab sim` does for vLLM's
// default random workload (1000 × 1024 in / 128 out, rate inf) after
// sampling: the virtual-clock run and the metric maths.
func BenchmarkSimDefaultWorkload(b *testing.B) {
	w := DefaultWorkload()
	corpus := textmodel.Compose(textmodel.ComposeRequest{
		Messages: []textmodel.Message{{Role: textmodel.RoleUser, Content: "serving latency"}}, ForcedTokens: 8192}).Text
	reqs, err := Sample(w, textmodel.Default(), corpus)
	if err != nil {
		b.Fatal(err)
	}
	cfg := engine.DefaultConfig()
	b.ResetTimer()
	for b.Loop() {
		outs, dur, err := RunSim(cfg, reqs, 0)
		if err != nil {
			b.Fatal(err)
		}
		_ = Compute(outs, dur, w.Percentiles)
	}
	b.ReportMetric(float64(w.NumRequests*b.N)/b.Elapsed().Seconds(), "sim-req/s")
}
