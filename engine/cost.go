package engine

import (
	"math"
	"time"
)

// BatchShape is what the cost model needs to know about one step's batch.
// The scheduler fills it without allocating.
type BatchShape struct {
	NumSeqs       int // sequences computing tokens this step
	PrefillTokens int // prompt or recompute tokens
	DecodeTokens  int // one per decoding sequence
	// SampledTokens are rows that go through the LM head: decodes plus
	// prefills that reach the end of their prompt.
	SampledTokens int
	// KVReadTokens is the cached context every sequence's attention reads:
	// for each sequence, the tokens already in its KV cache.
	KVReadTokens int64
	// AttnPairs counts query·key pairs: for a sequence with c cached tokens
	// computing k new ones, k·c + k·(k+1)/2 (causal).
	AttnPairs float64
}

// Tokens is the number of tokens computed in the step.
func (b BatchShape) Tokens() int { return b.PrefillTokens + b.DecodeTokens }

// CostModel turns a batch into modelled GPU time. The engine's default is
// the calibrated Roofline; tests and what-if labs may supply their own.
type CostModel interface {
	StepTime(b BatchShape) time.Duration
}

// Calibration constants. Each comes from a public measurement; the fit
// they produce is checked by TestCalibration against testdata/reference.json.
const (
	// matmulMFU is the fraction of peak dense tensor throughput the linear
	// layers reach in a large prefill. NVIDIA's H100 GEMM figures reach 70%,
	// but vLLM's end-to-end prefill (norms, rotary, sampling, launch gaps)
	// sits lower; vLLM PR #17882 measured a 2048-token Llama-3.1-8B prefill
	// on 2×A100 at 190 ms, which argues for at most 0.5.
	matmulMFU = 0.5
	// attnMFU is FlashAttention-2's fraction of peak on long causal
	// attention (its paper reports 50-73% on A100).
	attnMFU = 0.5
	// memEfficiency is the fraction of peak HBM bandwidth a decode step
	// streams weights and KV at. Fitted to Lambda's vLLM runs of
	// Mistral-7B on H100 (TPOT 7.06 ms) and A100 (11.36 ms) together with
	// a vLLM 0.23 sweep on A100-40GB (Llama-3.1-8B at 75 tok/s, "about 77%
	// of the memory-bandwidth ceiling").
	memEfficiency = 0.72
	// stepOverhead is the fixed per-iteration cost outside the GPU kernels
	// (scheduling, input preparation, sampling, CUDA graph launch): the
	// intercept of the same two-GPU fit (about 0.4-1 ms).
	stepOverhead = 1000 * time.Microsecond
	// seqOverhead is the per-sequence, per-step bookkeeping (block tables,
	// detokenization, output processing) that makes vLLM's TPOT grow with
	// batch size faster than the roofline alone; vLLM's v0.6.0 blog puts
	// CPU-side work at a large share of a step at high batch.
	seqOverhead = 12 * time.Microsecond
	// allReduceLatency is one all-reduce's fixed latency for small messages
	// over NVLink (vLLM's custom all-reduce: single-digit microseconds).
	allReduceLatency = 8 * time.Microsecond
	// allReduceLatencyPCIe is the same over PCIe, where vLLM falls back to
	// NCCL rings (tens of microseconds per call).
	allReduceLatencyPCIe = 30 * time.Microsecond
	// allReducePerPeer is what each further GPU adds to an all-reduce's
	// latency: the one-shot kernel reads every peer's buffer and waits on a
	// barrier across all of them. Fitted to Lambda's 4× and 8×H100 BF16
	// Llama-3-70B decode (TPOT 18.1 and 12.2 ms), both of which need about
	// 2.2 µs per peer per call beyond the fixed latency.
	allReducePerPeer = 2200 * time.Nanosecond
	// fp8LayerOverhead is the per-layer, per-step cost of running FP8
	// weights with FP8 activations (W8A8, on GPUs with FP8 tensor cores):
	// each linear layer first quantizes its input with a dynamic per-token
	// scale, an extra small kernel that bandwidth does not explain. Fitted to
	// Lambda's H100 FP8 runs (Llama-3.1-8B TP1, 70B TP2/4/8), which decode
	// 7-39% slower than their weight bytes alone predict. GPUs without FP8
	// tensor cores run FP8 weights as W8A16 and skip it.
	fp8LayerOverhead = 16 * time.Microsecond
)

// Roofline is the default cost model: per step, the weights are read once,
// every sequence's KV context is read, and compute is 2·params FLOPs per
// token plus attention; the step takes the larger of compute and memory
// time, plus tensor-parallel all-reduces and fixed overheads.
type Roofline struct {
	tp                float64
	weightBytes       float64 // per GPU
	linearParams      float64 // per GPU, applied to every computed token
	lmHeadParams      float64 // per GPU, applied to sampled tokens only
	kvBytesPerToken   float64 // per GPU
	attnFlopsPerPair  float64 // per GPU: 4 · heads · head_dim · layers / tp
	peakFLOPS         float64
	memBandwidth      float64 // bytes/s
	allReduceBytesTok float64 // bytes each GPU sends per token per all-reduce
	allReduceCalls    float64 // all-reduces per step
	allReduceBW       float64 // bytes/s per direction
	allReduceLat      time.Duration
	// layerOverhead is fixed work every step pays once per layer on this
	// GPU (FP8 activation quantization), independent of batch size.
	layerOverhead time.Duration
}

// NewRoofline derives the cost model for a validated config.
func NewRoofline(c Config) (*Roofline, error) {
	f, err := c.Footprint()
	if err != nil {
		return nil, err
	}
	m := c.Model
	tp := float64(c.TP)
	embed := float64(m.embeddingParams())
	body := float64(f.ParamCount) - embed
	if !m.TiedEmbeddings {
		body -= embed
	}
	peak := c.Hardware.BF16TFLOPS
	if c.Precision == FP8 && c.Hardware.FP8TFLOPS > 0 {
		peak = c.Hardware.FP8TFLOPS
	}
	r := &Roofline{
		tp:               tp,
		weightBytes:      float64(f.PerGPUWeightBytes),
		linearParams:     body / tp,
		lmHeadParams:     embed / tp,
		kvBytesPerToken:  float64(f.KVBytesPerToken) / tp,
		attnFlopsPerPair: 4 * float64(m.NumHeads*m.HeadDim*m.NumLayers) / tp,
		peakFLOPS:        peak * 1e12,
		memBandwidth:     c.Hardware.MemBandwidthGBs * 1e9,
	}
	if c.TP > 1 {
		// Megatron-style TP all-reduces the hidden state twice per layer
		// (after attention and after the MLP); a ring moves 2(p−1)/p of it.
		r.allReduceBytesTok = float64(m.HiddenSize) * 2 * 2 * (tp - 1) / tp
		r.allReduceCalls = 2 * float64(m.NumLayers)
		r.allReduceBW = c.Hardware.InterconnectGBs * 1e9
		r.allReduceLat = allReduceLatency
		if c.Hardware.Interconnect == "" || c.Hardware.Interconnect[0] == 'p' {
			r.allReduceLat = allReduceLatencyPCIe
		}
		r.allReduceLat += time.Duration(c.TP-1) * allReducePerPeer
	}
	if c.Precision == FP8 && c.Hardware.FP8TFLOPS > 0 {
		r.layerOverhead = time.Duration(m.NumLayers) * fp8LayerOverhead
	}
	return r, nil
}

// StepTime models one step. An empty batch costs nothing.
func (r *Roofline) StepTime(b BatchShape) time.Duration { return r.Explain(b).Total }

// Explain is StepTime term by term, so a page can show the arithmetic
// behind a figure with the run's own numbers.
func (r *Roofline) Explain(b BatchShape) StepBreakdown {
	tokens := float64(b.Tokens())
	e := StepBreakdown{PeakFLOPS: r.peakFLOPS, MatmulMFU: matmulMFU, AttnMFU: attnMFU,
		Bandwidth: r.memBandwidth, MemEfficiency: memEfficiency}
	if tokens == 0 {
		return e
	}
	e.LinearFLOPs = 2 * (r.linearParams*tokens + r.lmHeadParams*float64(b.SampledTokens))
	e.AttnFLOPs = r.attnFlopsPerPair * b.AttnPairs
	compute := e.LinearFLOPs/(r.peakFLOPS*matmulMFU) + e.AttnFLOPs/(r.peakFLOPS*attnMFU)
	e.Bytes = r.weightBytes + r.kvBytesPerToken*(float64(b.KVReadTokens)+tokens)
	memory := e.Bytes / (r.memBandwidth * memEfficiency)
	sec := math.Max(compute, memory)
	var comm float64
	if r.allReduceCalls > 0 {
		comm = r.allReduceCalls * r.allReduceBytesTok * tokens / r.allReduceBW
	}
	e.Compute, e.Memory = seconds(compute), seconds(memory)
	e.Overhead = stepOverhead + time.Duration(b.NumSeqs)*seqOverhead + r.layerOverhead
	e.AllReduce = seconds(comm)
	e.Total = time.Duration((sec+comm)*1e9) + e.Overhead
	if r.allReduceCalls > 0 {
		e.AllReduce += time.Duration(r.allReduceCalls) * r.allReduceLat
		e.Total += time.Duration(r.allReduceCalls) * r.allReduceLat
	}
	return e
}

// StepBreakdown is one modelled step, term by term: the step takes the
// larger of its compute and memory time, plus tensor-parallel traffic and
// fixed overheads.
type StepBreakdown struct {
	LinearFLOPs, AttnFLOPs float64 // 2·params·tokens, and attention
	PeakFLOPS              float64 // the GPU's dense peak at the precision, FLOP/s
	MatmulMFU, AttnMFU     float64 // fractions of peak reached
	Bytes                  float64 // weights plus KV read and written
	Bandwidth              float64 // bytes/s
	MemEfficiency          float64 // fraction of peak bandwidth reached
	Compute, Memory        time.Duration
	AllReduce              time.Duration // 0 on one GPU
	Overhead               time.Duration // per step and per sequence
	Total                  time.Duration
}

// ComputeBound reports whether compute, not memory traffic, set the step.
func (s StepBreakdown) ComputeBound() bool { return s.Compute > s.Memory }

func seconds(x float64) time.Duration { return time.Duration(x * 1e9) }
