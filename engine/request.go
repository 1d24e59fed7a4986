package engine

import (
	"errors"
	"fmt"
	"time"
)

// Request is one generation request. Callers tokenize the prompt (e.g. with
// engine/textmodel) so prefix caching can hash real token ids, and say what
// the model will answer: the engine emits OutputTokens one per decode step.
type Request struct {
	// ID names the request in results and traces; it must be unique among
	// the requests an engine holds.
	ID string
	// Arrival is the engine time the request arrived. Engine.Add rejects a
	// future arrival; Simulate adds each request when the clock reaches it.
	Arrival time.Duration
	// PromptTokens are the prompt's token ids.
	PromptTokens []int
	// OutputTokens is the answer. Generation ends with "stop" after the
	// last one, or with "length" when MaxTokens is reached first.
	OutputTokens []int
	// MaxTokens caps the completion (vLLM's max_tokens); 0 means up to the
	// model's context length.
	MaxTokens int
	// IgnoreEOS forces exactly MaxTokens output tokens (vLLM's ignore_eos),
	// cycling OutputTokens (or emitting token id 0 when it is empty).
	IgnoreEOS bool
}

// Finish reasons, as in the OpenAI API plus vLLM's "abort".
const (
	FinishStop   = "stop"
	FinishLength = "length"
	FinishAbort  = "abort"
)

// ContextLengthError is vLLM's error for prompt + max_tokens over the
// model's context length; its text matches vLLM's word for word.
type ContextLengthError struct {
	MaxContext, Prompt, Completion int
}

// Error returns vLLM's message.
func (e *ContextLengthError) Error() string {
	return fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
		e.MaxContext, e.Prompt+e.Completion, e.Prompt, e.Completion)
}

// ErrNoOutput is returned for a request that would produce no tokens.
var ErrNoOutput = errors.New("request has no output tokens and ignore_eos is off")

// maxTokens is the effective completion cap.
func (r *Request) maxTokens(maxContext int) int {
	if r.MaxTokens > 0 {
		return r.MaxTokens
	}
	return maxContext - len(r.PromptTokens)
}

// targetOutput is how many tokens the request will produce.
func (r *Request) targetOutput(maxContext int) int {
	mt := r.maxTokens(maxContext)
	if r.IgnoreEOS || len(r.OutputTokens) > mt {
		return mt
	}
	return len(r.OutputTokens)
}

// outputToken is the i-th token the request emits.
func (r *Request) outputToken(i int) int {
	if len(r.OutputTokens) == 0 {
		return 0
	}
	return r.OutputTokens[i%len(r.OutputTokens)]
}

// validateRequest checks a request against the model, the policy's token
// budget and the engine's KV capacity.
func (c *Config) validateRequest(r *Request, totalBlocks int) error {
	if r.ID == "" {
		return errors.New("request id is empty")
	}
	if len(r.PromptTokens) == 0 {
		return fmt.Errorf("request %s: prompt is empty", r.ID)
	}
	if r.MaxTokens < 0 {
		return fmt.Errorf("request %s: max_tokens %d must be at least 1", r.ID, r.MaxTokens)
	}
	maxCtx := c.Model.MaxContextLen
	if r.MaxTokens == 0 && r.IgnoreEOS {
		return fmt.Errorf("request %s: ignore_eos needs max_tokens", r.ID)
	}
	if len(r.PromptTokens)+r.MaxTokens > maxCtx || len(r.PromptTokens) >= maxCtx {
		return &ContextLengthError{MaxContext: maxCtx, Prompt: len(r.PromptTokens), Completion: r.MaxTokens}
	}
	n := r.targetOutput(maxCtx)
	if n < 1 {
		return fmt.Errorf("request %s: %w", r.ID, ErrNoOutput)
	}
	total := len(r.PromptTokens) + n
	if need := (total + BlockSize - 1) / BlockSize; need > totalBlocks {
		return fmt.Errorf("request %s: needs %d tokens of KV cache, the engine holds %d", r.ID, total, totalBlocks*BlockSize)
	}
	if c.Policy == Continuous && !c.ChunkedPrefill && total > c.MaxNumBatchedTokens {
		return fmt.Errorf("request %s: %d tokens exceed max_num_batched_tokens %d with chunked prefill off", r.ID, total, c.MaxNumBatchedTokens)
	}
	return nil
}
