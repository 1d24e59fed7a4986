package pipelinelab

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// lateness gathers, over one lab run, how late the engine's chunks
// reached the pipeline compared with when the modelled GPU made them, and
// how far the pipeline's stages ran behind their modelled times. The
// figures are the modelled ones, so that delay is not in them; the run's
// final status says when it was more than a few percent. It is safe for
// the concurrent requests of one run.
type lateness struct {
	clk clock.Clock
	mu  sync.Mutex
	lag labs.Delivery
	// thinking tallies a reasoning model's thinking over the run's model
	// calls (on a server), for the note it ends with.
	thinking thinkingTally
}

// thinkingTally counts, over a run's model calls, the tokens written,
// those that were thinking, and the calls whose every token was.
type thinkingTally struct {
	calls, tokens, thought, noAnswer int
}

// note tells the learner that the first words count from the answers, or
// that some calls brought no answer word at all; "" with no thinking.
func (t thinkingTally) note() string {
	switch {
	case t.thought == 0:
		return ""
	case t.calls == 1:
		return labs.ThinkingNote(t.thought, t.tokens, t.noAnswer == 0)
	case t.noAnswer > 0:
		return fmt.Sprintf("In %d of the %d model calls every token was thinking, so no answer word arrived and their first word is missing from the figures: raise the answer length.",
			t.noAnswer, t.calls)
	}
	return fmt.Sprintf("The model thought before its answers (%s over %d calls): each first word counts from the first answer token.",
		labs.Count(t.thought, "thinking token"), t.calls)
}

// watch wraps every tier's provider so its chunks are timed into l.
func (l *lateness) watch(tiers []pipeline.Tier) []pipeline.Tier {
	return pipeline.WrapProviders(tiers, func(inner pipeline.Provider) pipeline.Provider {
		return watchedProvider{inner: inner, l: l}
	})
}

// note is the busy-host note and the thinking note for the run's final
// status, each "" when there is nothing to say.
func (l *lateness) note() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return labs.JoinNotes(l.lag.BusyNote(), l.thinking.note())
}

// lateStageNames name the stages in the busy note ("… finished up to 40 ms
// later than the model says it should").
var lateStageNames = map[string]string{
	pipeline.StageGuardrail:  "the guardrail check",
	pipeline.StageContext:    "the lookups",
	pipeline.StageHistory:    "the history lookup",
	pipeline.StageRetrieval:  "the retrieval lookup",
	pipeline.StageOrder:      "the order lookup",
	pipeline.StagePrompt:     "prompt assembly",
	pipeline.StageCache:      "the cache check",
	pipeline.StageAttempt:    "a model call",
	pipeline.StageFirstToken: "the wait for the first token",
	pipeline.StageDecode:     "the answer's stream",
	pipeline.StageSave:       "saving the answer",
	pipeline.StageHelper:     "a helper model call",
}

// observe notes one moment of a request: the end of stage ("" for text
// shown), modelled on the modelled timeline, handler when the handler saw
// it (see pipeline.Deps.OnHostTime).
func (l *lateness) observe(stage string, modelled, handler time.Duration) {
	what := ""
	if stage != "" {
		what = lateStageNames[stage]
		if what == "" {
			what = "a pipeline stage"
		}
	}
	l.mu.Lock()
	l.lag.ObserveOf(what, modelled, handler)
	l.mu.Unlock()
}

// Deps completes a pipeline's dependencies with the run's: the pool's
// clock, on which the pipeline paces its stages (a test's late clock
// starves them), and the busy-host note's ear for how far each request's
// stages and text ran behind their modelled times.
func (r Run) Deps(d pipeline.Deps) pipeline.Deps {
	if r.Engines != nil {
		d.Clock = r.Engines.Clock()
	}
	if r.late != nil {
		d.OnHostTime = r.late.observe
	}
	return d
}

// final appends the note to a run's final frame (not to one that failed).
func (l *lateness) final(emit func(labs.Frame)) func(labs.Frame) {
	return func(f labs.Frame) {
		if f.Final && f.Error == "" {
			f.Status = labs.JoinNotes(f.Status, strings.TrimSpace(l.note()))
		}
		emit(f)
	}
}

// watchedProvider is a provider whose streams report to a lateness.
type watchedProvider struct {
	inner pipeline.Provider
	l     *lateness
}

// Stream starts the inner stream and times its chunks from now.
func (p watchedProvider) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	sent := p.l.clk.Now()
	s, err := p.inner.Stream(ctx, req)
	if err != nil {
		return nil, err // the wrapper is invisible: the pipeline words the provider's errors
	}
	return &watchedStream{Stream: s, l: p.l, sent: sent}, nil
}

// watchedStream compares each chunk's modelled time (when the engine
// made it, plus the modelled network) with when the pipeline read it.
type watchedStream struct {
	pipeline.Stream
	l    *lateness
	sent time.Time
	// tokens and thought count the call's tokens and its thinking ones;
	// answered says some answer text came.
	tokens, thought int
	answered        bool
}

// Recv passes the inner event on, noting how late it was read and, at
// the end, what of the call was thinking.
func (s *watchedStream) Recv() (pipeline.StreamEvent, error) {
	ev, err := s.Stream.Recv()
	if err != nil {
		return ev, err
	}
	if ev.Since > 0 {
		s.l.observe("", ev.Since, s.l.clk.Now().Sub(s.sent))
	}
	s.tokens += ev.Tokens
	switch {
	case ev.Text != "":
		s.answered = true
	case ev.Reasoning != "":
		s.thought += ev.Tokens
	}
	if ev.Done {
		s.l.mu.Lock()
		t := &s.l.thinking
		t.calls, t.tokens, t.thought = t.calls+1, t.tokens+s.tokens, t.thought+s.thought
		if s.thought > 0 && !s.answered {
			t.noAnswer++
		}
		s.l.mu.Unlock()
	}
	return ev, err
}
