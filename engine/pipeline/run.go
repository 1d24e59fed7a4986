package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
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
	ready        time.Duration // modelled moment the prompt was ready
	overallAt    time.Duration // modelled moment the overall timeout passes; 0: none
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
		// The deadline is read on the modelled timeline (each stage and
		// each attempt); this net, a quarter later, only stops a call
		// that never gets there.
		var cancel context.CancelFunc
		ctx, cancel = withDeadline(ctx, r.deps.Clock, r.rec.start.Add(r.cfg.Deadline+r.cfg.Deadline/4), ErrDeadline)
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
			PromptTokens: a.usage.PromptTokens, OutputTokens: a.usage.CompletionTokens,
			Handler: HandlerTimes{FirstWord: a.wallFirst, Total: a.wallLast}}
		if a.modelFirst > 0 || a.cached {
			res.Summary.FirstToken = a.modelFirst - a.attemptAt
		}
		res.Reasoning = a.thought.shown.String()
		res.Summary.Thinking, res.Summary.ThinkingTokens = a.thought.took(), a.thought.tokens
		res.Summary.ThinkingHidden = a.thought.hidden
		if res.Summary.Total == 0 && a.thought.started {
			// Every token was thinking: no answer text came, and the
			// response ended with its last thinking token.
			res.Summary.Total = a.thought.end
		}
	}
	res.Summary.Cost += r.extraCost
	res.Message = userMessage(res.Status)
	if errors.Is(res.Err, ErrContentFilter) {
		res.Message = "This answer was withdrawn because it broke our content policy. Please ask again or contact a human agent."
	}
	if res.Status == StatusBlocked {
		res.Text, res.Reasoning = "", "" // a withdrawn answer takes its thinking with it
	}
	if res.Status != StatusComplete {
		r.rec.emit(Event{Kind: EventError, At: r.rec.lastAt(), Err: res.Message, Status: res.Status, Cause: res.Err})
	}

	res.SaveErr = r.finishAnswer(res)
	res.Verdict = r.verdict
	res.Spans = r.rec.snapshot()
	res.Summary.Elapsed = r.rec.since()
	r.rec.emit(Event{Kind: EventDone, At: r.rec.lastAt(), Result: res})
	return res
}

// beforeModel runs guardrail, context building and prompt assembly.
func (r *run) beforeModel(ctx context.Context, res *Result) error {
	alongside := r.cfg.Guard.Enabled && r.cfg.Guard.Alongside
	var at time.Duration // the modelled timeline, from the request start
	var err error
	if r.cfg.Guard.Enabled && !alongside {
		if at, err = r.guard(ctx, at); err != nil {
			return err
		}
		if r.verdict.Action == ActionRedact {
			r.lookupText = r.verdict.Redacted
		}
	}
	if at, err = r.helperCalls(ctx, at); err != nil {
		return err
	}
	lk, at, err := r.buildContext(ctx, alongside, at)
	res.Lookups = lk
	if err != nil {
		return err
	}
	question := r.req.Question
	if r.verdict.Action == ActionRedact {
		question = r.verdict.Redacted
	}
	sp := r.rec.begin(StagePrompt, "", at)
	res.Prompt = assemblePrompt(r.deps.Text, r.cfg.Prompt, lk, question)
	r.promptTokens = res.Prompt.Tokens()
	r.ready, err = r.waitUntil(ctx, at+r.cfg.Gateway.Overhead.sample(stageRNG(r.req.Seed, StagePrompt)))
	sp.end(r.ready, fmt.Sprintf("%d tokens", r.promptTokens), err)
	return err
}

// guard classifies the question and takes the simulated service latency
// from the modelled moment from (the classifier's own time on the host is
// not modelled: it shows in the handler's times); a block stops the
// request. It returns the modelled moment it ended.
func (r *run) guard(ctx context.Context, from time.Duration) (time.Duration, error) {
	sp := r.rec.begin(StageGuardrail, "", from)
	v := Classify(r.deps.Clock, r.req.Question)
	r.mu.Lock()
	r.verdict = v
	r.mu.Unlock()
	end, err := r.waitUntil(ctx, from+r.cfg.Guard.Latency.sample(stageRNG(r.req.Seed, StageGuardrail)))
	if err != nil {
		sp.end(end, v.Action, err)
		return end, err
	}
	detail := v.Action
	if len(v.Reasons) > 0 {
		detail += ": " + strings.Join(v.Reasons, ", ")
	}
	if v.Blocked() {
		sp.end(end, detail, errBlocked)
		return end, errBlocked
	}
	sp.end(end, detail, nil)
	return end, nil
}
