package pipeline

import (
	"errors"
	"fmt"
	"time"
)

// How an answer ended; saved with the message (see Turn.Status).
const (
	StatusComplete  = "complete"
	StatusCancelled = "cancelled" // the client went away
	StatusError     = "error"     // the model failed; Text holds what was shown
	StatusTimeout   = "timeout"   // cut off by a timeout; Text holds what was shown
	StatusBlocked   = "blocked"   // stopped by the input guardrail or the content filter
	// StatusStreaming marks an answer saved while it is still growing.
	StatusStreaming = "streaming"
	// StatusInterrupted marks an answer that was still streaming when the
	// server stopped (a crash or kill): the store sets it when it opens
	// again, so history shows the partial text for what it was.
	StatusInterrupted = "interrupted"
)

// GuardConfig shapes the input guardrail.
type GuardConfig struct {
	Enabled bool
	// Latency is a simulated service latency added to the classifier's
	// own (measured) time, as a hosted moderation API would add.
	Latency Latency
	// Alongside runs the guardrail at the same time as context building
	// instead of before it; a block then cancels the lookups.
	Alongside bool
}

// Config is everything a run can be tuned by. The zero value is usable but
// bare; DefaultConfig matches the seeds' support assistant.
type Config struct {
	Guard   GuardConfig
	Context ContextConfig
	Prompt  PromptConfig
	Gateway GatewayConfig
	// Helpers are model calls made before the answer (default none).
	Helpers HelperCalls
	// Deadline is the whole request's allowance, shared by every stage and
	// every retry (0: none).
	Deadline time.Duration
	// SaveTimeout bounds each save of the messages, which outlives a client
	// that has gone away (default 2 s).
	SaveTimeout time.Duration
	// SaveEvery and SaveEveryTokens set how often a growing answer is
	// saved: when either this much time or this many tokens have passed
	// since the last save (defaults 1 s and 32 tokens), so a crash loses at
	// most that much of what the learner saw.
	SaveEvery       time.Duration
	SaveEveryTokens int
	// MaxQuestionChars refuses longer questions (default 4000).
	MaxQuestionChars int
}

// DefaultConfig is the seeds' example: an 80 ms guardrail, three lookups of
// 30/120/60 ms in parallel, a 15 ms gateway hop, the medium tier with the
// small one as fallback, a 5 s first-token timeout and a 20 s deadline.
func DefaultConfig() Config {
	return Config{
		Guard: GuardConfig{Enabled: true, Latency: Latency{Base: 80 * time.Millisecond}},
		Context: ContextConfig{
			Parallel: true, HistoryTurns: 10, TopK: 5, Order: true,
			HistoryLatency:   Latency{Base: 30 * time.Millisecond},
			RetrievalLatency: Latency{Base: 120 * time.Millisecond},
			OrderLatency:     Latency{Base: 60 * time.Millisecond},
		},
		Prompt: PromptConfig{HistoryBudget: 1000},
		Gateway: GatewayConfig{
			Tier: "medium", Fallback: []string{"small"},
			FirstTokenTimeout: 5 * time.Second, OverallTimeout: 20 * time.Second,
			Overhead: Latency{Base: 15 * time.Millisecond}, Cache: true,
		},
		Deadline:         20 * time.Second,
		SaveTimeout:      2 * time.Second,
		SaveEvery:        time.Second,
		SaveEveryTokens:  32,
		MaxQuestionChars: 4000,
	}
}

// Validate checks the configuration on its own; New checks it against the
// tiers.
func (c Config) Validate() error {
	if err := c.Guard.Latency.Validate(); err != nil {
		return fmt.Errorf("guardrail: %w", err)
	}
	if err := c.Context.Validate(); err != nil {
		return fmt.Errorf("context: %w", err)
	}
	if err := c.Gateway.Validate(); err != nil {
		return err
	}
	if err := c.Helpers.Validate(); err != nil {
		return err
	}
	if c.Deadline < 0 || c.SaveTimeout < 0 || c.SaveEvery < 0 || c.SaveEveryTokens < 0 || c.MaxQuestionChars < 0 {
		return errors.New("deadline, save timeout, save cadence and question limit must not be negative")
	}
	return nil
}
