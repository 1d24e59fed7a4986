package prefilldecode

import (
	"fmt"
	"math"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// The roofline chart places a step by its arithmetic intensity: the FLOPs it
// does per byte it moves between memory and the chip. The engine does not
// export per-step FLOPs and bytes, but it does hand its cost model every
// step's inputs (engine.BatchShape). The lab wraps the engine's own cost
// model to record those inputs and the step times it returns, and turns the
// inputs into FLOPs and bytes with the formulas of engine.Roofline
// (engine/cost.go):
//
//	FLOPs = 2 · (body params · tokens + LM-head params · sampled tokens)
//	      + 4 · heads · head_dim · layers · attention pairs
//	bytes = weight bytes + KV bytes per token · (cached context + tokens)
//
// where body params are all weights but the embedding table and LM head,
// all per GPU. If engine/cost.go changes its formulas, these must follow;
// TestWorkMatchesEngineCost checks them against the engine's step times.

// workModel turns a step's batch shape into FLOPs and bytes.
type workModel struct {
	linearParams float64 // per GPU, applied to every computed token
	lmHeadParams float64 // per GPU, applied to sampled tokens
	attnPerPair  float64 // FLOPs per query·key pair, per GPU
	weightBytes  float64 // per GPU
	kvPerToken   float64 // bytes per token of KV cache, per GPU
	peakFLOPS    float64 // dense peak at this precision (FLOP/s)
	bandwidth    float64 // bytes/s
}

// newWorkModel derives the figures from a validated configuration.
func newWorkModel(cfg engine.Config) (workModel, error) {
	f, err := cfg.Footprint()
	if err != nil {
		return workModel{}, fmt.Errorf("roofline: %w", err)
	}
	m := cfg.Model
	tp := float64(max(cfg.TP, 1))
	embed := float64(m.VocabSize) * float64(m.HiddenSize)
	body := float64(f.ParamCount) - embed
	if !m.TiedEmbeddings {
		body -= embed
	}
	peak := cfg.Hardware.BF16TFLOPS
	if cfg.Precision == engine.FP8 && cfg.Hardware.FP8TFLOPS > 0 {
		peak = cfg.Hardware.FP8TFLOPS
	}
	return workModel{
		linearParams: body / tp,
		lmHeadParams: embed / tp,
		attnPerPair:  4 * float64(m.NumHeads*m.HeadDim*m.NumLayers) / tp,
		weightBytes:  float64(f.PerGPUWeightBytes),
		kvPerToken:   float64(f.KVBytesPerToken) / tp,
		peakFLOPS:    peak * 1e12,
		bandwidth:    cfg.Hardware.MemBandwidthGBs * 1e9,
	}, nil
}

// flops is the arithmetic of one step.
func (w workModel) flops(b engine.BatchShape) float64 {
	return 2*(w.linearParams*float64(b.Tokens())+w.lmHeadParams*float64(b.SampledTokens)) + w.attnPerPair*b.AttnPairs
}

// bytes is the memory traffic of one step.
func (w workModel) bytes(b engine.BatchShape) float64 {
	return w.weightBytes + w.kvPerToken*(float64(b.KVReadTokens)+float64(b.Tokens()))
}

// ridge is the intensity (FLOPs/byte) where the roof turns from memory- to
// compute-bound: peak FLOP/s ÷ bytes/s.
func (w workModel) ridge() float64 { return w.peakFLOPS / w.bandwidth }

// roof is the attainable FLOP/s at an intensity: min(peak, bandwidth × I).
func (w workModel) roof(intensity float64) float64 {
	return math.Min(w.peakFLOPS, w.bandwidth*intensity)
}

// recordedStep is one step's cost-model input and modelled time.
type recordedStep struct {
	shape engine.BatchShape
	dur   time.Duration
}

// recorder wraps a cost model and records every step it prices. The engine
// calls StepTime once per step that computes anything, in step order, from
// one goroutine, so a recorder serves one simulation.
type recorder struct {
	inner engine.CostModel
	steps []recordedStep
}

// StepTime prices the step with the wrapped model and records it.
func (r *recorder) StepTime(b engine.BatchShape) time.Duration {
	d := r.inner.StepTime(b)
	r.steps = append(r.steps, recordedStep{shape: b, dur: d})
	return d
}

// phaseWork sums one phase's steps: FLOPs, bytes and modelled time.
type phaseWork struct {
	steps int
	flops float64
	bytes float64
	dur   time.Duration
}

// intensity is FLOPs per byte.
func (p phaseWork) intensity() float64 {
	if p.bytes == 0 {
		return 0
	}
	return p.flops / p.bytes
}

// achieved is the FLOP/s the phase sustained in the engine's model.
func (p phaseWork) achieved() float64 {
	if p.dur <= 0 {
		return 0
	}
	return p.flops / p.dur.Seconds()
}

// phases splits a single request's recorded steps into its prefill (steps
// that compute prompt tokens; a long prompt is prefilled in chunks) and its
// decode steps.
func phases(w workModel, steps []recordedStep) (prefill, decode phaseWork) {
	for _, s := range steps {
		p := &decode
		if s.shape.PrefillTokens > 0 {
			p = &prefill
		}
		p.steps++
		p.flops += w.flops(s.shape)
		p.bytes += w.bytes(s.shape)
		p.dur += s.dur
	}
	return prefill, decode
}
