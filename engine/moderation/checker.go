package moderation

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// Config shapes a Checker.
type Config struct {
	// Clock measures checks and paces the simulated latency; nil means
	// the wall clock.
	Clock clock.Clock
	// Latency is a simulated moderation-service call added to every
	// check (a hosted moderation model costs tens to hundreds of
	// milliseconds). 0 means the detectors' own time only.
	Latency time.Duration
	// Classifier is the policy model; nil means DefaultClassifier.
	Classifier *Classifier
	// Output and Prompt select the detectors for each kind of check;
	// zero means OutputKinds and PromptKinds.
	Output, Prompt Kinds
}

// Validate reports a configuration that cannot work.
func (c Config) Validate() error {
	if c.Latency < 0 {
		return fmt.Errorf("moderation: latency %v is negative", c.Latency)
	}
	if c.Latency > time.Minute {
		return fmt.Errorf("moderation: latency %v is over a minute", c.Latency)
	}
	return nil
}

// Checker runs detectors over text the way a moderation service does:
// measured, and with its service latency. It is safe for concurrent use.
type Checker struct {
	clock      clock.Clock
	latency    time.Duration
	classifier *Classifier
	output     Kinds
	prompt     Kinds
}

// NewChecker returns a checker for cfg.
func NewChecker(cfg Config) (*Checker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Checker{clock: clock.Or(cfg.Clock), latency: cfg.Latency, classifier: cfg.Classifier, output: cfg.Output, prompt: cfg.Prompt}
	if c.classifier == nil {
		cl, err := DefaultClassifier()
		if err != nil {
			return nil, fmt.Errorf("moderation: classifier: %w", err)
		}
		c.classifier = cl
	}
	if c.output == 0 {
		c.output = OutputKinds
	}
	if c.prompt == 0 {
		c.prompt = PromptKinds
	}
	return c, nil
}

// Clock returns the checker's clock.
func (c *Checker) Clock() clock.Clock { return c.clock }

// Check moderates a piece of a model's answer (personal data and policy by
// default). It fails only when ctx ends during the simulated latency.
func (c *Checker) Check(ctx context.Context, text string) (Result, error) {
	return c.run(ctx, text, c.output)
}

// CheckPrompt moderates a user's message before generation (prompt
// injection and policy by default).
func (c *Checker) CheckPrompt(ctx context.Context, text string) (Result, error) {
	return c.run(ctx, text, c.prompt)
}

// Detect runs the output detectors with no clock and no latency: the
// ground truth a run is judged against.
func (c *Checker) Detect(text string) Result { return Detect(c.classifier, text, c.output) }

func (c *Checker) run(ctx context.Context, text string, kinds Kinds) (Result, error) {
	start := c.clock.Now()
	r := Detect(c.classifier, text, kinds)
	r.Took = c.clock.Now().Sub(start)
	r.Modelled = c.latency
	if c.latency > 0 {
		select {
		case <-c.clock.After(c.latency):
		case <-ctx.Done():
			return r, fmt.Errorf("moderation: check cancelled: %w", context.Cause(ctx))
		}
		r.Waited = c.clock.Now().Sub(start) - r.Took
	}
	return r, nil
}
