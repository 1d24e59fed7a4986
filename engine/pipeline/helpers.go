package pipeline

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine/textmodel"
	"golang.org/x/sync/errgroup"
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

// helperCalls runs the configured calls; failures degrade, only a
// cancelled request returns an error.
func (r *run) helperCalls(ctx context.Context) error {
	h := r.cfg.Helpers
	if h.Count == 0 {
		return nil
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
	call := func(ctx context.Context, i int) error {
		task := helperTasks[i%len(helperTasks)]
		sp := r.rec.begin(StageHelper, tier.Name)
		req := ProviderRequest{ID: fmt.Sprintf("%s-%s", r.id, task.name), Model: tier.Model, MaxTokens: maxTokens, Seed: r.req.Seed,
			Messages: []textmodel.Message{{Role: textmodel.RoleSystem, Content: task.prompt}, {Role: textmodel.RoleUser, Content: r.lookupText}}}
		u, err := drain(ctx, tier.Provider, req)
		r.mu.Lock()
		r.extraCost += tier.Cost(u)
		r.mu.Unlock()
		sp.end(fmt.Sprintf("%s: %d tokens", task.name, u.CompletionTokens), err)
		if err != nil && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return nil
	}
	if !h.Parallel {
		for i := range h.Count {
			if err := call(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	for i := range h.Count {
		g.Go(func() error { return call(gctx, i) })
	}
	return g.Wait()
}

// drain reads a whole completion and returns its usage.
func drain(ctx context.Context, p Provider, req ProviderRequest) (Usage, error) {
	s, err := p.Stream(ctx, req)
	if err != nil {
		return Usage{}, err
	}
	defer s.Close()
	var u Usage
	for {
		ev, err := s.Recv()
		if err != nil {
			return u, err
		}
		u.CompletionTokens += ev.Tokens
		if ev.Done {
			if ev.Usage.CompletionTokens > 0 || ev.Usage.PromptTokens > 0 {
				u = ev.Usage
			}
			return u, nil
		}
	}
}
