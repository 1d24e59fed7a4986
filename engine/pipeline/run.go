package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

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
	saver        turnSaver
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
		r.startAnswer()
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

	res.SaveErr = r.finishAnswer(res)
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
	err = clock.Sleep(ctx, r.deps.Clock, r.cfg.Gateway.Overhead.sample(stageRNG(r.req.Seed, StagePrompt)))
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
	if err := clock.Sleep(ctx, r.deps.Clock, wait); err != nil {
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
