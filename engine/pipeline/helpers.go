package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// StageHelper is a model call made before the answer.
const StageHelper = "model-call"

// HelperCalls are extra model calls made before the answer — rewrite the
// question, classify it, plan — the chain the levers lesson warns about:
// in a row each adds its whole duration to the first word. Their output is
// discarded; their time and cost are real.
type HelperCalls struct {
	Count     int    // 0..5
	Tier      string // "" uses the gateway's primary tier
	MaxTokens int    // per call; 0 means 32
	Parallel  bool   // independent calls made at once
}

// Validate checks the range.
func (h HelperCalls) Validate() error {
	if h.Count < 0 || h.Count > 5 || h.MaxTokens < 0 {
		return fmt.Errorf("helper calls: count %d outside 0..5 or negative max tokens", h.Count)
	}
	return nil
}

var helperTasks = []struct{ name, prompt string }{
	{"rewrite", "Rewrite the customer's message as a short search query."},
	{"classify", "Classify the customer's message as order, shipping, returns, billing or other."},
	{"plan", "List the facts an answer to the customer's message needs."},
	{"tone", "Describe the customer's mood in one word."},
	{"language", "Name the language of the customer's message."},
}

// helperCalls runs the configured calls from the modelled moment from and
// returns when they ended on the modelled timeline; failures degrade, only
// a cancelled request returns an error.
func (r *run) helperCalls(ctx context.Context, from time.Duration) (time.Duration, error) {
	h := r.cfg.Helpers
	if h.Count == 0 {
		return from, nil
	}
	name := h.Tier
	if name == "" {
		name = r.cfg.Gateway.Tier
	}
	tier := r.tiers[name]
	maxTokens := h.MaxTokens
	if maxTokens == 0 {
		maxTokens = 32
	}
	steps := make([]func(context.Context, time.Duration) (time.Duration, error), h.Count)
	for i := range steps {
		task := helperTasks[i%len(helperTasks)]
		steps[i] = func(ctx context.Context, from time.Duration) (time.Duration, error) {
			sp := r.rec.begin(StageHelper, tier.Name, from)
			req := ProviderRequest{ID: fmt.Sprintf("%s-%s", r.id, task.name), Model: tier.Model, MaxTokens: maxTokens, Seed: r.req.Seed,
				Messages: []textmodel.Message{{Role: textmodel.RoleSystem, Content: task.prompt}, {Role: textmodel.RoleUser, Content: r.lookupText}}}
			wallFrom := r.rec.since()
			u, took, err := drain(r.sentAt(ctx, from), tier.Provider, req)
			if took < 0 { // no modelled time: the handler's
				took = r.rec.since() - wallFrom
			}
			r.mu.Lock()
			r.extraCost += tier.Cost(u)
			r.mu.Unlock()
			end := from + took
			if err != nil && ctx.Err() != nil {
				end = r.stoppedAt(ctx, end)
				sp.end(end, fmt.Sprintf("%s: %d tokens", task.name, u.CompletionTokens), err)
				return end, context.Cause(ctx)
			}
			end, cut := r.waitUntil(ctx, end)
			sp.end(end, fmt.Sprintf("%s: %d tokens", task.name, u.CompletionTokens), errors.Join(err, cut))
			return end, cut
		}
	}
	return runSteps(ctx, steps, from, h.Parallel)
}

// drain reads a whole completion and returns its usage and its modelled
// time from the call to its last event (-1 when the provider models none).
func drain(ctx context.Context, p Provider, req ProviderRequest) (Usage, time.Duration, error) {
	took := time.Duration(-1)
	s, err := p.Stream(ctx, req)
	if err != nil {
		return Usage{}, took, err
	}
	defer s.Close()
	var u Usage
	for {
		ev, err := s.Recv()
		if err != nil {
			return u, took, err
		}
		if ev.Since > 0 {
			took = max(took, ev.Since)
		}
		u.CompletionTokens += ev.Tokens
		if ev.Done {
			if ev.Usage.CompletionTokens > 0 || ev.Usage.PromptTokens > 0 {
				u = ev.Usage
			}
			return u, took, nil
		}
	}
}
