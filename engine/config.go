package engine

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Precision is the weight format. The KV cache and activations stay BF16.
type Precision string

// Weight precisions. FP8 and INT4 shrink the bytes read per step; FP8 also
// doubles peak compute on GPUs with FP8 tensor cores.
const (
	BF16 Precision = "bf16"
	FP8  Precision = "fp8"
	INT4 Precision = "int4"
)

// bytesPerParam is the storage of one weight. INT4 (GPTQ/AWQ, group size
// 128) carries an FP16 scale and zero point per 128 weights: 0.5 + 4/128.
func (p Precision) bytesPerParam() (float64, error) {
	switch p {
	case BF16:
		return 2, nil
	case FP8:
		return 1, nil
	case INT4:
		return 0.5 + 4.0/128, nil
	}
	return 0, fmt.Errorf("unknown precision %q (valid: bf16, fp8, int4)", p)
}

// Policy is a scheduling policy.
type Policy string

// Scheduling policies.
const (
	// Sequential serves one request at a time, start to finish.
	Sequential Policy = "sequential"
	// Static forms a batch of up to BatchSize requests, waiting up to
	// BatchWait for it to fill, and runs it to completion; finished
	// sequences keep their slot until the whole batch ends.
	Static Policy = "static"
	// Continuous is vLLM v1's iteration-level scheduling: requests join and
	// leave at token boundaries within MaxNumSeqs and MaxNumBatchedTokens.
	Continuous Policy = "continuous"
)

// Policies lists the valid policies.
func Policies() []Policy { return []Policy{Sequential, Static, Continuous} }

// BlockSize is the number of tokens per KV cache block (vLLM's default).
const BlockSize = 16

// Config is everything that shapes one engine instance.
type Config struct {
	Hardware  Hardware
	Model     Model
	Precision Precision
	// TP is the tensor-parallel degree: 1, 2, 4 or 8 GPUs.
	TP int
	// GPUMemoryUtilization is the fraction of each GPU's memory the engine
	// may use for weights, activations and KV cache (vLLM default 0.9).
	GPUMemoryUtilization float64

	Policy Policy
	// MaxNumSeqs caps running sequences (continuous).
	MaxNumSeqs int
	// MaxNumBatchedTokens is the per-step token budget (continuous).
	MaxNumBatchedTokens int
	// ChunkedPrefill lets a long prompt be split across steps and mixed with
	// decodes (continuous). Without it a prompt is prefilled whole in one step.
	ChunkedPrefill bool
	// PrefixCaching reuses KV blocks of identical prompt prefixes.
	PrefixCaching bool
	// NumSchedulerSteps is vLLM 0.6's multi-step scheduling
	// (--num-scheduler-steps, continuous): a decode-only batch runs this
	// many steps before the scheduler looks at the queue again, so a request
	// that arrives during the round waits for it to end. 0 or 1 is off.
	NumSchedulerSteps int
	// BatchSize and BatchWait shape the static policy.
	BatchSize int
	BatchWait time.Duration

	// NumGPUBlocks overrides the KV capacity derived from memory (tests and
	// what-if labs); 0 means derive it.
	NumGPUBlocks int
	// Cost overrides the step cost model; nil means the calibrated roofline.
	Cost CostModel
}

// DefaultConfig is Llama-3.1-8B in BF16 on one H100 SXM with vLLM v1's
// serving defaults (continuous batching, chunked prefill, prefix caching).
func DefaultConfig() Config {
	hw, _ := LookupHardware("h100-sxm")
	m, _ := LookupModel("llama-3.1-8b")
	return Config{
		Hardware:             hw,
		Model:                m,
		Precision:            BF16,
		TP:                   1,
		GPUMemoryUtilization: 0.9,
		Policy:               Continuous,
		MaxNumSeqs:           256,
		MaxNumBatchedTokens:  8192,
		ChunkedPrefill:       true,
		PrefixCaching:        true,
		BatchSize:            32,
		BatchWait:            50 * time.Millisecond,
	}
}

// Validate checks every field and that the model fits in memory.
func (c Config) Validate() error {
	if err := c.Hardware.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := c.Model.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if _, err := c.Precision.bytesPerParam(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	switch c.TP {
	case 1, 2, 4, 8:
	default:
		return fmt.Errorf("config: tensor parallelism %d (valid: 1, 2, 4, 8)", c.TP)
	}
	if c.Model.NumKVHeads%c.TP != 0 && c.TP%c.Model.NumKVHeads != 0 {
		return fmt.Errorf("config: %d KV heads cannot be split over tp %d", c.Model.NumKVHeads, c.TP)
	}
	if !(c.GPUMemoryUtilization > 0 && c.GPUMemoryUtilization <= 1) {
		return fmt.Errorf("config: gpu_memory_utilization %g, want (0, 1]", c.GPUMemoryUtilization)
	}
	switch c.Policy {
	case Sequential, Static, Continuous:
	default:
		return fmt.Errorf("config: unknown policy %q (valid: sequential, static, continuous)", c.Policy)
	}
	if c.MaxNumSeqs < 1 || c.MaxNumSeqs > 65536 {
		return fmt.Errorf("config: max_num_seqs %d, want 1..65536", c.MaxNumSeqs)
	}
	if c.MaxNumBatchedTokens < 1 || c.MaxNumBatchedTokens > 1<<20 {
		return fmt.Errorf("config: max_num_batched_tokens %d, want 1..%d", c.MaxNumBatchedTokens, 1<<20)
	}
	if c.NumSchedulerSteps < 0 || c.NumSchedulerSteps > 64 {
		return fmt.Errorf("config: num_scheduler_steps %d, want 0..64", c.NumSchedulerSteps)
	}
	if c.BatchSize < 1 || c.BatchSize > 65536 {
		return fmt.Errorf("config: batch size %d, want 1..65536", c.BatchSize)
	}
	if c.BatchWait < 0 || c.BatchWait > time.Hour {
		return fmt.Errorf("config: batch wait %v, want 0..1h", c.BatchWait)
	}
	if c.NumGPUBlocks < 0 {
		return errors.New("config: num_gpu_blocks must not be negative")
	}
	if _, err := c.Footprint(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// Footprint is a deployment's derived memory figures, per GPU unless noted.
type Footprint struct {
	ParamCount      int64 // whole model
	WeightBytes     int64 // whole model at the chosen precision
	KVBytesPerToken int64 // whole model (all layers, all KV heads)
	// PerGPUWeightBytes is this GPU's shard of the weights.
	PerGPUWeightBytes int64
	// ActivationReserveBytes is what vLLM's profiling run would hold back
	// for activations, logits, CUDA graphs and non-torch allocations.
	ActivationReserveBytes int64
	// KVCacheBytes is the per-GPU memory left for the KV cache.
	KVCacheBytes int64
	NumBlocks    int // KV blocks of BlockSize tokens
	KVTokens     int // NumBlocks × BlockSize
}

const gib = 1 << 30

// nonTorchReserveBytes covers the CUDA context, NCCL buffers and CUDA graph
// pools that vLLM's memory profiler reports outside activations; vLLM logs
// for 8B-class models on H100 show roughly 1 GiB of such overhead.
const nonTorchReserveBytes = 1 * gib

// Footprint derives weight bytes, KV bytes per token and KV capacity:
// memory × gpu_memory_utilization − weights − activation reserve. It fails
// when the model does not fit.
func (c Config) Footprint() (Footprint, error) {
	bpp, err := c.Precision.bytesPerParam()
	if err != nil {
		return Footprint{}, err
	}
	m := c.Model
	tp := int64(max(c.TP, 1))
	f := Footprint{ParamCount: m.ParamCount(), KVBytesPerToken: m.KVBytesPerToken()}
	// Embeddings and LM head stay BF16 in FP8/INT4 checkpoints.
	embed := m.embeddingParams()
	if !m.TiedEmbeddings {
		embed *= 2
	}
	body := f.ParamCount - embed
	f.WeightBytes = int64(float64(body)*bpp) + embed*2
	f.PerGPUWeightBytes = f.WeightBytes / tp
	// Peak activations of the profiling run: one step of max_num_batched_tokens
	// through the widest layer (gated MLP intermediate, sharded by TP) plus the
	// residual stream, and FP32 logits for max_num_seqs sampled rows.
	tokens := int64(max(c.MaxNumBatchedTokens, 1))
	act := tokens*(4*int64(m.HiddenSize)+3*int64(m.IntermediateSize)/tp)*2 +
		int64(max(c.MaxNumSeqs, 1))*int64(m.VocabSize)*4
	f.ActivationReserveBytes = act + nonTorchReserveBytes
	budget := int64(c.Hardware.MemoryGiB*gib*c.GPUMemoryUtilization) - f.PerGPUWeightBytes - f.ActivationReserveBytes
	f.KVCacheBytes = budget
	perGPUKVPerToken := (f.KVBytesPerToken + tp - 1) / tp
	if m.NumKVHeads < int(tp) { // KV heads are replicated when tp exceeds them
		perGPUKVPerToken = f.KVBytesPerToken / int64(m.NumKVHeads)
	}
	if budget > 0 {
		f.NumBlocks = int(budget / (perGPUKVPerToken * BlockSize))
	}
	if c.NumGPUBlocks > 0 {
		f.NumBlocks = c.NumGPUBlocks
	}
	f.KVTokens = f.NumBlocks * BlockSize
	if f.NumBlocks < 1 {
		need := float64(f.PerGPUWeightBytes+f.ActivationReserveBytes) / gib / c.GPUMemoryUtilization
		return f, fmt.Errorf("%s at %s does not fit on %s with tp %d: needs about %.1f GiB per GPU, has %.1f GiB (try a larger tp, a lower precision or a bigger GPU)",
			m.Name, c.Precision, c.Hardware.Name, tp, math.Ceil(need*10)/10, c.Hardware.MemoryGiB)
	}
	return f, nil
}
