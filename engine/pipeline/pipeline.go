package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// Deps are the pipeline's collaborators. Nil stores switch their stage off.
type Deps struct {
	Tiers     []Tier
	History   History
	Retriever Retriever
	Orders    Orders
	Messages  Messages
	Cache     *Cache
	Clock     clock.Clock      // nil: the real clock
	Text      *textmodel.Model // nil: the shared model
	// OnHostTime, when set, hears each stage end and each piece of text
	// shown with its modelled time and its handler time (both since the
	// request start), so a lab can tell the learner when a busy host
	// stretched the run. stage names the stage that ended ("" for text).
	// It may be called from several goroutines, never at once for one
	// request.
	OnHostTime func(stage string, modelled, handler time.Duration)
}

// Pipeline runs support requests through every stage. Safe for concurrent
// use; build a new one to change its configuration.
type Pipeline struct {
	cfg   Config
	deps  Deps
	tiers map[string]Tier
}

// New checks cfg against deps and returns a pipeline.
func New(cfg Config, deps Deps) (*Pipeline, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("pipeline config: %w", err)
	}
	deps.Clock = clock.Or(deps.Clock)
	if deps.Text == nil {
		deps.Text = textmodel.Default()
	}
	// Load the tokenizer now, not inside the first request's prompt stage.
	deps.Text.Count("warm up")
	if cfg.SaveTimeout == 0 {
		cfg.SaveTimeout = 2 * time.Second
	}
	if cfg.SaveEvery == 0 {
		cfg.SaveEvery = time.Second
	}
	if cfg.SaveEveryTokens == 0 {
		cfg.SaveEveryTokens = 32
	}
	if cfg.MaxQuestionChars == 0 {
		cfg.MaxQuestionChars = 4000
	}
	tiers := make(map[string]Tier, len(deps.Tiers))
	names := make([]string, 0, len(deps.Tiers))
	for _, t := range deps.Tiers {
		if t.Name == "" || t.Provider == nil {
			return nil, fmt.Errorf("pipeline: tier %q needs a name and a provider", t.Name)
		}
		if _, dup := tiers[t.Name]; dup {
			return nil, fmt.Errorf("pipeline: duplicate tier %q", t.Name)
		}
		if t.PriceIn < 0 || t.PriceOut < 0 {
			return nil, fmt.Errorf("pipeline: tier %q has a negative price", t.Name)
		}
		tiers[t.Name] = t
		names = append(names, t.Name)
	}
	for _, n := range append([]string{cfg.Gateway.Tier, cfg.Helpers.Tier}, cfg.Gateway.Fallback...) {
		if n == "" {
			continue // no helper tier: the primary
		}
		if _, ok := tiers[n]; !ok {
			return nil, fmt.Errorf("pipeline: unknown tier %q (have %s)", n, strings.Join(names, ", "))
		}
	}
	return &Pipeline{cfg: cfg, deps: deps, tiers: tiers}, nil
}

// Config returns the configuration in use.
func (p *Pipeline) Config() Config { return p.cfg }

// Request is one customer message.
type Request struct {
	ID             string // optional; names engine requests
	ConversationID string // for history and saving; empty: neither
	Customer       string // for the order lookup
	Question       string
	// Seed fixes the simulated latencies and the model's sampling.
	Seed int64
}

// InputError is a request the pipeline refuses before starting.
type InputError struct{ Reason string }

// Error says what was wrong with the request.
func (e *InputError) Error() string { return "bad request: " + e.Reason }

// Run takes one request through every stage, calling on (if not nil) for
// every event in time order; on is never called concurrently. Cancelling
// ctx (a client disconnect) stops the model; whatever was shown is saved
// with its status. The error is non-nil only for a request refused before
// starting (*InputError); everything after shows in the Result and as
// events.
func (p *Pipeline) Run(ctx context.Context, req Request, on func(Event)) (*Result, error) {
	q := strings.TrimSpace(req.Question)
	switch {
	case q == "":
		return nil, &InputError{Reason: "the question is empty"}
	case !utf8.ValidString(q):
		return nil, &InputError{Reason: "the question is not valid UTF-8"}
	case utf8.RuneCountInString(q) > p.cfg.MaxQuestionChars:
		return nil, &InputError{Reason: fmt.Sprintf("the question has %d characters; the limit is %d",
			utf8.RuneCountInString(q), p.cfg.MaxQuestionChars)}
	}
	req.Question = q
	r := &run{cfg: p.cfg, deps: p.deps, tiers: p.tiers, req: req, id: req.ID, ctx: ctx,
		rec: newRecorder(p.deps.Clock, on, p.deps.OnHostTime), lookupText: q}
	if r.id == "" {
		r.id = fmt.Sprintf("req-%d", req.Seed)
	}
	return r.execute(), nil
}
