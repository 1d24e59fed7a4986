package engine

import (
	"slices"
	"time"
)

// StepTrace describes one engine step; the batching lab draws timelines
// from it. Engine.Step reuses its Batch slice: Clone a trace to keep it.
type StepTrace struct {
	Index    int           // step number, from 0
	Start    time.Duration // engine time the step began
	Duration time.Duration // modelled GPU time of the step
	Running  int           // sequences running after scheduling
	Waiting  int           // requests waiting after scheduling
	// PrefillTokens and DecodeTokens are this step's computed tokens.
	PrefillTokens int
	DecodeTokens  int
	KVUsage       float64 // fraction of KV blocks in use after the step
	Preemptions   int     // sequences preempted (recompute) in this step
	Batch         []BatchEntry
}

// BatchEntry is one sequence's share of a step.
type BatchEntry struct {
	ID      string
	Prefill int // prompt (or recompute) tokens computed
	Decode  int // 1 when the sequence decoded a token
}

// Clone returns a copy that does not share the Batch slice.
func (t StepTrace) Clone() StepTrace {
	t.Batch = slices.Clone(t.Batch)
	return t
}

// End is the engine time the step finished.
func (t StepTrace) End() time.Duration { return t.Start + t.Duration }

// TokenEvent is one emitted output token.
type TokenEvent struct {
	ID     string        // request id
	Serial uint64        // the request's admission number (see Engine.Serial)
	Index  int           // 0-based position in the completion
	Token  int           // token id
	Time   time.Duration // engine time the token was produced (step end)
}

// Usage counts a request's tokens, as in the OpenAI API.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	// CachedTokens are prompt tokens served from the prefix cache.
	CachedTokens int
}

// Finished reports a request that ended in a step.
type Finished struct {
	ID           string
	Serial       uint64 // the request's admission number (see Engine.Serial)
	FinishReason string // FinishStop, FinishLength or FinishAbort
	Usage        Usage
	Timing       Timing
	Preemptions  int
}

// Timing holds a request's engine timestamps.
type Timing struct {
	Arrival        time.Duration
	FirstScheduled time.Duration // first step that computed any of it
	FirstToken     time.Duration // time of the first output token
	End            time.Duration // time of the last token (or the abort)
}

// StepResult is what one Step produced. Its slices are reused by the next
// Step: copy what you keep.
type StepResult struct {
	Trace    StepTrace
	Tokens   []TokenEvent
	Finished []Finished
}

// Stats is a snapshot of the engine's gauges and counters (/metrics).
type Stats struct {
	Now                time.Duration
	Running            int
	Waiting            int
	KVUsage            float64
	NumBlocks          int
	Steps              int64
	PromptTokens       int64 // prompt tokens of requests that started (vllm:prompt_tokens_total)
	GenerationTokens   int64
	Preemptions        int64
	FinishedRequests   int64
	PrefixCacheQueries int64 // prompt tokens looked up in the prefix cache
	PrefixCacheHits    int64 // of those, tokens found
	BusyTime           time.Duration
	LastStepDuration   time.Duration
}
