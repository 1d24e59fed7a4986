package pipeline

import (
	"errors"
	"fmt"
	"time"
)

// Tier is one model behind the gateway, with its price.
type Tier struct {
	Name     string // "small", "medium", "large"
	Provider Provider
	// Model is what the provider is asked for: an upstream model name,
	// or a label for an engine provider (which serves one model).
	Model string
	// Prices in US dollars per million tokens.
	PriceIn  float64
	PriceOut float64
}

// Cost prices a usage on this tier.
func (t Tier) Cost(u Usage) float64 {
	return (float64(u.PromptTokens)*t.PriceIn + float64(u.CompletionTokens)*t.PriceOut) / 1e6
}

// GatewayConfig shapes the model call.
type GatewayConfig struct {
	// Tier is the primary tier; Fallback lists the tiers to try, in
	// order, when a call fails or times out before its first token.
	Tier     string
	Fallback []string
	// FirstTokenTimeout gives up on a tier that has sent nothing after
	// this long and moves to the next (0: wait as long as the deadline
	// allows).
	FirstTokenTimeout time.Duration
	// OverallTimeout bounds the model call as a whole, retries included;
	// when it fires the answer ends with what has been written
	// (status "timeout"). 0: none.
	OverallTimeout time.Duration
	// Overhead is the simulated time to pass the gateway (auth, routing).
	Overhead Latency
	// Cache replays stored answers for an identical tier and prompt.
	Cache bool
	// Buffered holds the answer back until it is complete, as a
	// non-streaming API does: the first word arrives with the last.
	Buffered bool
	// MaxTokens caps the answer (0: the model's natural length);
	// ExactTokens forces an exact length (0: off).
	MaxTokens   int
	ExactTokens int
	Temperature float64
}

// Validate checks values that do not depend on the tiers.
func (g GatewayConfig) Validate() error {
	switch {
	case g.Tier == "":
		return errors.New("gateway: no tier chosen")
	case g.FirstTokenTimeout < 0 || g.OverallTimeout < 0:
		return errors.New("gateway: timeouts must not be negative")
	case g.MaxTokens < 0 || g.ExactTokens < 0:
		return errors.New("gateway: token limits must not be negative")
	case g.Temperature < 0 || g.Temperature > 2:
		return fmt.Errorf("gateway: temperature %v is outside 0..2", g.Temperature)
	}
	if err := g.Overhead.Validate(); err != nil {
		return fmt.Errorf("gateway overhead: %w", err)
	}
	return nil
}
