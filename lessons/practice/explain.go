package practice

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// setup is a drawn deployment with its engine config and footprint.
type setup struct {
	d   deployment
	cfg engine.Config
	fp  engine.Footprint
}

func drawSetup(r *rand.Rand) (setup, error) {
	d := pick(r, deployments...)
	return newSetup(d)
}

func newSetup(d deployment) (setup, error) {
	cfg, err := d.config()
	if err != nil {
		return setup{}, err
	}
	fp, err := cfg.Footprint()
	if err != nil {
		return setup{}, err
	}
	return setup{d: d, cfg: cfg, fp: fp}, nil
}

// weightsStep shows where the weight bytes come from.
func (s setup) weightsStep() Step {
	note := ""
	if s.cfg.Precision != engine.BF16 {
		note = " (the embeddings and output layer stay 16-bit)"
	}
	return stepf("Weights read per step (per GPU)",
		"%s parameters × %s ÷ %s ≈ %s%s",
		sig(float64(s.fp.ParamCount)/1e9)+" B", bytesPerParamText(s.cfg.Precision), labs.Count(s.cfg.TP, "GPU"), fmtBytes(float64(s.fp.PerGPUWeightBytes)), note)
}

// decodeSteps explains a decode step: reading the weights at the
// bandwidth the engine reaches, plus a fixed overhead.
func (s setup) decodeSteps(measured time.Duration) []Step {
	bw := s.cfg.Hardware.MemBandwidthGBs * 1e9
	ideal := float64(s.fp.PerGPUWeightBytes) / bw
	return []Step{
		s.weightsStep(),
		stepf("Memory floor of one decode step", "%s ÷ %s GB/s = %s (the engine reaches about 72%% of that bandwidth and adds about 1 ms of per-step work%s)",
			fmtBytes(float64(s.fp.PerGPUWeightBytes)), sig(s.cfg.Hardware.MemBandwidthGBs), fmtSecs(ideal), s.allReduceNote()),
		stepf("Time per output token (engine)", "TPOT = %s", fmtDur(measured)),
	}
}

// prefillSteps explains prefill: 2 FLOPs per parameter per prompt token at
// about half the GPU's peak.
func (s setup) prefillSteps(prompt int, measured time.Duration) []Step {
	peak := s.cfg.Hardware.BF16TFLOPS
	if s.cfg.Precision == engine.FP8 && s.cfg.Hardware.FP8TFLOPS > 0 {
		peak = s.cfg.Hardware.FP8TFLOPS
	}
	flops := 2 * float64(s.fp.ParamCount) * float64(prompt)
	return []Step{
		stepf("Arithmetic of the prefill", "2 × %s parameters × %s tokens ≈ %s FLOPs",
			sig(float64(s.fp.ParamCount)/1e9)+" B", fmtInt(prompt), sig(flops/1e12)+" T"),
		stepf("At about half the peak", "%s TFLOPs ÷ (%d × %s TFLOP/s × 0.5) ≈ %s, plus attention over the prompt",
			sig(flops/1e12), s.cfg.TP, sig(peak), fmtSecs(flops/(float64(s.cfg.TP)*peak*1e12*0.5))),
		stepf("Time to first token (engine)", "TTFT = %s", fmtDur(measured)),
	}
}

// allReduceNote names the GPUs' exchange that tensor parallelism adds to
// every step.
func (s setup) allReduceNote() string {
	if s.cfg.TP < 2 {
		return ""
	}
	return fmt.Sprintf(", plus two all-reduces per layer across the %d GPUs", s.cfg.TP)
}
