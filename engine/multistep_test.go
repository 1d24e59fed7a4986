package engine

import (
	"testing"
	"time"
)

// flatCost prices every non-empty step the same, so a test can count steps.
type flatCost time.Duration

func (c flatCost) StepTime(b BatchShape) time.Duration {
	if b.Tokens() == 0 {
		return 0
	}
	return time.Duration(c)
}

// TestMultiStepHoldsNewRequests: with multi-step scheduling a request that
// arrives while a decode round runs is first scheduled when the round ends;
// with it off it joins the next step.
func TestMultiStepHoldsNewRequests(t *testing.T) {
	const step = 10 * time.Millisecond
	for _, c := range []struct {
		steps         int
		wantScheduled time.Duration
	}{
		{0, 2 * step},   // off: B joins the step after it arrives
		{1, 2 * step},   // one step per round is the same as off
		{4, 5 * step},   // A's round runs steps 1-4; B waits for it
		{10, 11 * step}, // a ten-step round, as Lambda's servers ran
	} {
		cfg := DefaultConfig()
		cfg.Cost = flatCost(step)
		cfg.NumSchedulerSteps = c.steps
		reqs := []Request{
			{ID: "A", PromptTokens: []int{1, 2, 3, 4}, MaxTokens: 40, IgnoreEOS: true},
			{ID: "B", Arrival: step + step/2, PromptTokens: []int{5, 6, 7, 8}, MaxTokens: 4, IgnoreEOS: true},
		}
		res, err := Simulate(cfg, reqs, SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := res.Requests[1]
		if b.FirstScheduled != c.wantScheduled || b.FirstToken != c.wantScheduled+step {
			t.Errorf("%d scheduler steps: B scheduled at %v, first token %v; want %v and %v",
				c.steps, b.FirstScheduled, b.FirstToken, c.wantScheduled, c.wantScheduled+step)
		}
		if a := res.Requests[0]; len(a.TokenTimes) != 40 {
			t.Errorf("%d scheduler steps: A produced %d tokens, want 40", c.steps, len(a.TokenTimes))
		}
	}
}

// TestMultiStepValidation rejects a round length vLLM would not take.
func TestMultiStepValidation(t *testing.T) {
	for _, n := range []int{-1, 65} {
		cfg := DefaultConfig()
		cfg.NumSchedulerSteps = n
		if err := cfg.Validate(); err == nil {
			t.Errorf("num_scheduler_steps %d accepted", n)
		}
	}
}
