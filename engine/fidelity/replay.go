package fidelity

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/benchmark"
)

// Config builds the engine deployment the run measured.
func (r *Run) Config() (engine.Config, error) {
	cfg := engine.DefaultConfig()
	var err error
	if len(r.HardwareConfig) > 0 {
		cfg.Hardware, err = engine.LoadHardwareConfig(bytes.NewReader(r.HardwareConfig))
	} else {
		cfg.Hardware, err = engine.LookupHardware(r.Hardware)
	}
	if err != nil {
		return cfg, err
	}
	if len(r.ModelConfig) > 0 {
		cfg.Model, err = engine.LoadModelConfig(bytes.NewReader(r.ModelConfig))
	} else {
		cfg.Model, err = engine.LookupModel(r.Model)
	}
	if err != nil {
		return cfg, err
	}
	cfg.Precision, cfg.TP = r.Precision, r.TP
	cfg.ChunkedPrefill, cfg.PrefixCaching = r.ChunkedPrefill, r.PrefixCaching
	if r.MaxNumSeqs > 0 {
		cfg.MaxNumSeqs = r.MaxNumSeqs
	}
	if r.MaxNumBatchedTokens > 0 {
		cfg.MaxNumBatchedTokens = r.MaxNumBatchedTokens
	}
	cfg.NumSchedulerSteps = r.NumSchedulerSteps
	return cfg, cfg.Validate()
}

// requests rebuilds the workload: every request arrives at once (rate inf)
// and generates exactly its output length, as the benchmark asked with
// ignore_eos. A row the benchmark counted as zero output still reached the
// server and was prefilled (its text was empty, so it carried no timing):
// it is replayed as one token, so it loads the engine as it loaded the
// server, and silent marks it for leaving out of the figures. Prompt tokens
// are random with a fixed seed, so no two prompts share a cached prefix.
func (r *Run) requests() (reqs []benchmark.Request, silent []bool) {
	rng := rand.New(rand.NewPCG(7, 7))
	add := func(in, out int, quiet bool) {
		p := make([]int, in)
		for i := range p {
			p[i] = rng.IntN(30000)
		}
		reqs = append(reqs, benchmark.Request{ID: fmt.Sprint(len(reqs)), PromptLen: in, PromptTokens: p, OutputLen: max(out, 1)})
		silent = append(silent, quiet)
	}
	for i, in := range r.InputLens {
		add(in, r.OutputLens[i], r.OutputLens[i] == 0)
	}
	for range r.NumPrompts {
		add(r.InputLen, r.OutputLen, false)
	}
	return reqs, silent
}

// Replay runs the workload on the current engine's virtual clock and
// returns the same figures the source measured. An offline run
// (benchmark_latency) meets the engine directly; a served run meets vLLM's
// API server first (see FrontEnd).
func (r *Run) Replay() (map[string]float64, error) {
	cfg, err := r.Config()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.ID, err)
	}
	reqs, silent := r.requests()
	var outs []benchmark.Output
	var dur time.Duration
	if r.Served {
		// The client meets vLLM's API server before the engine core, and
		// every token it receives passed through the server's event loop.
		outs, dur, err = serve(cfg, VLLMFrontEnd(), reqs, r.MaxConcurrency)
	} else {
		outs, dur, err = benchmark.RunSim(cfg, reqs, r.MaxConcurrency)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.ID, err)
	}
	timed := outs[:0]
	for i, o := range outs {
		if !silent[i] {
			timed = append(timed, o)
		}
	}
	res := benchmark.Compute(timed, dur, nil)
	got := map[string]float64{
		"median_ttft_ms":    res.TTFT.Median,
		"median_tpot_ms":    res.TPOT.Median,
		"median_itl_ms":     res.ITL.Median,
		"mean_e2e_ms":       res.E2EL.Mean,
		"median_e2e_ms":     res.E2EL.Median,
		"duration_s":        res.Duration.Seconds(),
		"output_throughput": res.OutputThroughput,
	}
	out := make(map[string]float64, len(r.Metrics))
	for name := range r.Metrics {
		out[name] = got[name]
	}
	return out, nil
}
