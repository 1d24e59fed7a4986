package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// How an answer ended; saved with the message (see Turn.Status).
const (
	StatusComplete  = "complete"
	StatusCancelled = "cancelled" // the client went away
	StatusError     = "error"     // the model failed; Text holds what was shown
	StatusTimeout   = "timeout"   // cut off by a timeout; Text holds what was shown
	StatusBlocked   = "blocked"   // stopped by the input guardrail or the content filter
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
	// SaveTimeout bounds saving the messages, which outlives a client that
	// has gone away (default 2 s).
	SaveTimeout time.Duration
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
	if c.Deadline < 0 || c.SaveTimeout < 0 || c.MaxQuestionChars < 0 {
		return errors.New("deadline, save timeout and question limit must not be negative")
	}
	return nil
}

// Deps are the pipeline's collaborators. Nil stores switch their stage off.
type Deps struct {
	Tiers     []Tier
	History   History
	Retriever Retriever
	Orders    Orders
	Messages  Messages
	Cache     *Cache
	Clock     Clock            // nil: the real clock
	Text      *textmodel.Model // nil: the shared model
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
	if deps.Clock == nil {
		deps.Clock = RealClock{}
	}
	if deps.Text == nil {
		deps.Text = textmodel.Default()
	}
	// Load the tokenizer now, not inside the first request's prompt stage.
	deps.Text.Count("warm up")
	if cfg.SaveTimeout == 0 {
		cfg.SaveTimeout = 2 * time.Second
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

// Summary holds the headline figures of a run, all measured on the clock.
type Summary struct {
	// FirstToken is the model's time to first token: from the start of
	// the attempt that answered to its first token.
	FirstToken time.Duration
	// FirstWord is what the user waits: request start to the first text.
	FirstWord time.Duration
	// Total is request start to the last text (the answer complete).
	Total time.Duration
	// Elapsed includes saving the messages.
	Elapsed      time.Duration
	PromptTokens int
	OutputTokens int
	Cost         float64 // US dollars, every attempt included
}

// Result is a finished run.
type Result struct {
	ID     string
	Status string
	// Text is exactly what the user was shown of the answer.
	Text string
	// Message explains a status other than complete, for the user.
	Message      string
	Err          error
	Tier         string // the tier that answered (or was replayed from cache)
	Cached       bool
	FinishReason string
	Verdict      Verdict
	Lookups      Lookups
	Prompt       Prompt
	Attempts     []Attempt
	Usage        Usage
	Spans        []Span
	Summary      Summary
	SaveErr      error
}

// run is the state of one request.
type run struct {
	cfg          Config
	deps         Deps
	tiers        map[string]Tier
	req          Request
	id           string
	ctx          context.Context // the caller's: done means the client left
	rec          *recorder
	deadline     time.Time
	lookupText   string
	promptTokens int
	mu           sync.Mutex
	verdict      Verdict
	extraCost    float64 // helper calls
	delivered    []cachedDelta
}

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
		rec: newRecorder(p.deps.Clock, on), lookupText: q}
	if r.id == "" {
		r.id = fmt.Sprintf("req-%d", req.Seed)
	}
	return r.execute(), nil
}

func (r *run) execute() *Result {
	res := &Result{ID: r.id}
	ctx := r.ctx
	if r.cfg.Deadline > 0 {
		r.deadline = r.rec.start.Add(r.cfg.Deadline)
		var cancel context.CancelFunc
		ctx, cancel = withDeadline(ctx, r.deps.Clock, r.deadline, ErrDeadline)
		defer cancel()
	}

	err := r.beforeModel(ctx, res)
	var a *answer
	switch {
	case errors.Is(err, errBlocked):
		res.Status, res.Err = StatusBlocked, err
	case err != nil:
		a = &answer{}
		r.settle(ctx, a)
		res.Status, res.Err = a.status, a.err
	default:
		a = r.callModel(ctx, res.Prompt)
		res.Status, res.Err, res.Text = a.status, a.err, a.text.String()
		res.Tier, res.Cached, res.FinishReason = a.tier, a.cached, a.finish
		res.Attempts, res.Usage = a.attempts, a.usage
		res.Summary = Summary{FirstWord: a.firstShown, Total: a.lastShown, Cost: a.cost,
			PromptTokens: a.usage.PromptTokens, OutputTokens: a.usage.CompletionTokens}
		if a.modelFirst > 0 || a.cached {
			res.Summary.FirstToken = a.modelFirst - a.attemptAt
		}
	}
	res.Summary.Cost += r.extraCost
	res.Message = userMessage(res.Status)
	if errors.Is(res.Err, ErrContentFilter) {
		res.Message = "This answer was withdrawn because it broke our content policy. Please ask again or contact a human agent."
	}
	if res.Status == StatusBlocked {
		res.Text = ""
	}
	if res.Status != StatusComplete {
		r.rec.emit(Event{Kind: EventError, Err: res.Message, Status: res.Status, Cause: res.Err})
	}

	res.SaveErr = r.save(res)
	res.Verdict = r.verdict
	res.Spans = r.rec.snapshot()
	res.Summary.Elapsed = r.rec.since()
	r.rec.emit(Event{Kind: EventDone, Result: res})
	return res
}

// beforeModel runs guardrail, context building and prompt assembly.
func (r *run) beforeModel(ctx context.Context, res *Result) error {
	alongside := r.cfg.Guard.Enabled && r.cfg.Guard.Alongside
	if r.cfg.Guard.Enabled && !alongside {
		if err := r.guard(ctx); err != nil {
			return err
		}
		if r.verdict.Action == ActionRedact {
			r.lookupText = r.verdict.Redacted
		}
	}
	if err := r.helperCalls(ctx); err != nil {
		return err
	}
	lk, err := r.buildContext(ctx, alongside)
	res.Lookups = lk
	if err != nil {
		return err
	}
	question := r.req.Question
	if r.verdict.Action == ActionRedact {
		question = r.verdict.Redacted
	}
	sp := r.rec.begin(StagePrompt, "")
	res.Prompt = assemblePrompt(r.deps.Text, r.cfg.Prompt, lk, question)
	r.promptTokens = res.Prompt.Tokens()
	err = Sleep(ctx, r.deps.Clock, r.cfg.Gateway.Overhead.sample(stageRNG(r.req.Seed, StagePrompt)))
	sp.end(fmt.Sprintf("%d tokens", r.promptTokens), err)
	return err
}

// guard classifies the question, then waits out the simulated service
// latency; a block stops the request.
func (r *run) guard(ctx context.Context) error {
	sp := r.rec.begin(StageGuardrail, "")
	v := Classify(r.deps.Clock, r.req.Question)
	r.mu.Lock()
	r.verdict = v
	r.mu.Unlock()
	wait := r.cfg.Guard.Latency.sample(stageRNG(r.req.Seed, StageGuardrail)) - v.Took
	if err := Sleep(ctx, r.deps.Clock, wait); err != nil {
		sp.end(v.Action, err)
		return err
	}
	detail := v.Action
	if len(v.Reasons) > 0 {
		detail += ": " + strings.Join(v.Reasons, ", ")
	}
	if v.Blocked() {
		sp.end(detail, errBlocked)
		return errBlocked
	}
	sp.end(detail, nil)
	return nil
}

// userMessage explains an ending to the user.
func userMessage(status string) string {
	switch status {
	case StatusBlocked:
		return "Sorry, I can't help with that message. Please rephrase your question about your order or our service."
	case StatusError:
		return "The answer broke off because the model failed, so it is incomplete. Please ask again."
	case StatusTimeout:
		return "The answer took longer than allowed and was cut off here."
	case StatusCancelled:
		return "Stopped."
	}
	return ""
}

// save stores the question and the answer as shown, with how it ended, on
// a context that survives the client's disconnect but has its own limit.
func (r *run) save(res *Result) error {
	if r.deps.Messages == nil || r.req.ConversationID == "" {
		return nil
	}
	sp := r.rec.begin(StageSave, res.Tier)
	ctx, cancel := withDeadline(context.WithoutCancel(r.ctx), r.deps.Clock,
		r.deps.Clock.Now().Add(r.cfg.SaveTimeout), errors.New("save timed out"))
	defer cancel()
	q := r.req.Question
	if r.verdict.Action == ActionRedact {
		q = r.verdict.Redacted // personal data is not kept
	}
	now := r.deps.Clock.Now()
	err := r.deps.Messages.SaveMessage(ctx, SavedMessage{ConversationID: r.req.ConversationID, Role: "user",
		Content: q, Status: StatusComplete, At: now})
	if err == nil {
		content := res.Text
		if res.Status == StatusBlocked {
			content = res.Message
		}
		err = r.deps.Messages.SaveMessage(ctx, SavedMessage{ConversationID: r.req.ConversationID, Role: "assistant",
			Content: content, Status: res.Status, PromptTokens: res.Usage.PromptTokens,
			OutputTokens: res.Usage.CompletionTokens, Tier: res.Tier, At: r.deps.Clock.Now()})
	}
	if err != nil {
		err = fmt.Errorf("save messages: %w", err)
	}
	sp.end(res.Status, err)
	return err
}
