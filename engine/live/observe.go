package live

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// Observer is told about every request that finishes on an engine, once,
// whoever submitted it. It is how serving metrics see lab, chat and API
// traffic alike without each caller reporting its own. The runner calls it
// on its own goroutine after each step, so it must be quick and must not
// block (a Prometheus histogram observation is).
type Observer interface {
	RequestFinished(RequestStats)
}

// RequestStats is what an Observer learns about one finished request, in
// engine time.
type RequestStats struct {
	// Source says whose request it was (see WithSource), e.g. "api" or
	// "lab".
	Source       string
	FinishReason string
	Usage        engine.Usage
	Timing       engine.Timing
	// TokenGaps are the times between consecutive output tokens (one fewer
	// than the tokens), what vLLM's time_per_output_token observes. Only
	// an engine's own Observer gets them.
	TokenGaps []time.Duration
	// Sharing is who else the request's steps served, as its final event
	// says.
	Sharing Sharing
}

type sourceKey struct{}

// WithSource labels the requests submitted with ctx as coming from source
// ("api", "lab", "chat"), so an Observer can tell traffic apart on an
// engine that several callers share.
func WithSource(ctx context.Context, source string) context.Context {
	return context.WithValue(ctx, sourceKey{}, source)
}

type watcherKey struct{}

// WithWatcher makes every engine that a request submitted with ctx runs
// on tell w when that request ends, aborted ones included (their Sharing
// up to the abort): a caller who hands ctx on to code that submits for
// it (a lab's run) learns which batches its own requests shared, on
// whichever engine they ran. w is called on the engine's runner, so it
// must be quick and must not block.
func WithWatcher(ctx context.Context, w Observer) context.Context {
	return context.WithValue(ctx, watcherKey{}, w)
}

// watcherOf is ctx's watcher, or nil.
func watcherOf(ctx context.Context) Observer {
	w, _ := ctx.Value(watcherKey{}).(Observer)
	return w
}

type sentKey struct{}

// WithSentAt says that the requests submitted with ctx were sent at
// moment at of the caller's modelled timeline, which a busy host may have
// got them to the engine after. An engine with background traffic that
// stands still puts them there (see Background); any other engine takes a
// request when it comes.
func WithSentAt(ctx context.Context, at time.Time) context.Context {
	return context.WithValue(ctx, sentKey{}, at)
}

// SentLater moves the moment a request in ctx was sent on the modelled
// timeline d later, for a step (a queue, a network leg) that took exactly
// d there; a ctx without a modelled moment is returned as it is.
func SentLater(ctx context.Context, d time.Duration) context.Context {
	if at, ok := SentAt(ctx); ok {
		return WithSentAt(ctx, at.Add(d))
	}
	return ctx
}

// SentAt is the moment WithSentAt put in ctx, if any.
func SentAt(ctx context.Context) (time.Time, bool) {
	at, ok := ctx.Value(sentKey{}).(time.Time)
	return at, ok
}

// sourceOf is ctx's source, or fallback when ctx names none.
func sourceOf(ctx context.Context, fallback string) string {
	if s, ok := ctx.Value(sourceKey{}).(string); ok && s != "" {
		return s
	}
	return fallback
}

// recordToken notes a token's time on its stream for the gap list; only
// called when the engine has an observer, so unobserved engines keep no
// per-token history.
func (s *stream) recordToken(index int, at time.Duration) {
	if index > 0 {
		s.gaps = append(s.gaps, at-s.lastToken)
	}
	s.lastToken = at
}

// notify hands the finished requests of one step to the observer, outside
// the engine lock. Aborted requests are left out: their latency says how
// long the client waited, not how long the engine took.
func (e *Engine) notify(done []RequestStats) {
	for _, r := range done {
		e.cfg.Observer.RequestFinished(r)
	}
}
