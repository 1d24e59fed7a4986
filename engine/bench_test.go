package engine

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time: on a shared, loaded
// machine it measures the work done, where wall time measures the queue.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStep256 measures one decode step with 256 running sequences
// (goal: under 20 µs).
func BenchmarkStep256(b *testing.B) {
	cfg := DefaultConfig()
	cfg.PrefixCaching = false
	// 256 × (512 + 1000) tokens fit in the KV cache, so no step preempts;
	// a fresh, fully prefilled engine replaces one about to finish.
	reqs := fixedRequests(1, 256, 512, 1000)
	var e *Engine
	fresh := func() {
		var err error
		if e, err = New(cfg); err != nil {
			b.Fatal(err)
		}
		for _, r := range reqs {
			if err := e.Add(r); err != nil {
				b.Fatal(err)
			}
		}
		for e.Step().Trace.PrefillTokens > 0 || e.waiting.len() > 0 {
		}
	}
	fresh()
	steps, n := 0, 0
	var cpu time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if steps == 900 {
			b.StopTimer()
			cpu += cpuTime() - cpu0
			fresh()
			steps = 0
			b.StartTimer()
			cpu0 = cpuTime()
		}
		n++
		if r := e.Step(); r.Trace.DecodeTokens != 256 {
			b.Fatalf("step decoded %d sequences", r.Trace.DecodeTokens)
		}
		steps++
	}
	if cpu += cpuTime() - cpu0; cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/step")
	}
}

// BenchmarkSimulate runs vllm bench serve's default workload (1024 in, 128
// out, rate inf) for llama-3.1-8b on h100-sxm and reports simulated
// requests per wall-clock second (goal: at least 20,000).
func BenchmarkSimulate(b *testing.B) {
	cfg := DefaultConfig()
	reqs := fixedRequests(2, 1000, 1024, 128)
	b.ReportAllocs()
	b.ResetTimer()
	n, cpu0 := 0, cpuTime()
	for b.Loop() {
		if _, err := Simulate(cfg, reqs, SimOptions{}); err != nil {
			b.Fatal(err)
		}
		n += len(reqs)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "req/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "req/cpu-s")
	}
}
