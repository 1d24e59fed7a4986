package openaiapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/moderation"
)

// DefaultModeration is the stage the app serves its API with: abort
// mid-stream over windows of 20 tokens with 10 of overlap, and a prompt
// check before generation. The answer is checked for personal data and
// against the content policy (rules and the calibrated classifier, which
// flags none of the held-out corpus sentences, help-article chunks,
// composed answers or their 20/10 windows; see engine/moderation's
// TestPolicyFalseAlarms). The prompt check runs the injection rules only:
// a customer may quote abuse or a scam they received when asking for help.
func DefaultModeration() (*moderation.Stage, error) {
	c, err := moderation.NewChecker(moderation.Config{Output: moderation.KindPII | moderation.KindPolicy, Prompt: moderation.KindInjection})
	if err != nil {
		return nil, fmt.Errorf("openaiapi: moderation: %w", err)
	}
	return &moderation.Stage{Checker: c, CheckPrompt: true,
		Filter: moderation.FilterConfig{Policy: moderation.AbortMidStream, Window: 20, Overlap: 10}}, nil
}

// engineRun is what the engine reported for one moderated generation. The
// producer goroutine writes it while the handler reads it, hence the lock.
type engineRun struct {
	mu        sync.Mutex
	generated int         // token events the engine sent, aborted or not
	final     *live.Event // the engine's Done event; nil after an abort
}

func (e *engineRun) token() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.generated++
}

func (e *engineRun) finish(ev live.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.final = &ev
}

// result returns the final event (nil if the request was aborted) and the
// number of tokens generated.
func (e *engineRun) result() (*live.Event, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.final, e.generated
}

// produce is the stage's generator: it submits g with the stage's context,
// so an abort cancels the engine request and frees its KV blocks, and
// passes the answer's pieces on as the engine emits them.
func (s *Server) produce(g *generation, run *engineRun) moderation.Generate {
	return func(ctx context.Context) (<-chan string, error) {
		out := make(chan string)
		if len(g.answer.Tokens) == 0 {
			// A stop string at the very start leaves nothing to generate.
			close(out)
			return out, nil
		}
		ch, err := s.submit(ctx, g)
		if err != nil {
			return nil, err
		}
		go func() {
			defer close(out)
			forwarding := true
			// Read to the end even after an abort: the engine closes ch once
			// it has seen the cancellation, and every token it sent until
			// then counts as generated.
			for ev := range ch {
				if ev.Done {
					run.finish(ev)
					continue
				}
				run.token()
				if !forwarding || ev.Index < 0 || ev.Index >= len(g.answer.Pieces) {
					continue
				}
				select {
				case out <- g.answer.Pieces[ev.Index]:
				case <-ctx.Done():
					forwarding = false
				}
			}
		}()
		return out, nil
	}
}

// moderatedOutcome is how a moderated generation ended, for the response.
type moderatedOutcome struct {
	finish string // the OpenAI finish reason
	usage  *usage
	// engineErr is set when the engine failed under the request (it closed).
	engineErr error
}

// outcome turns the stage's verdict and the engine's report into the
// finish reason and usage the client gets. A passed answer keeps the
// engine's reason (stop or length); usage counts the tokens the engine
// really generated, fewer than the answer when the stage aborted it.
func outcome(g *generation, reason string, run *engineRun) moderatedOutcome {
	final, generated := run.result()
	o := moderatedOutcome{finish: reason, usage: newUsage(len(g.prompt), generated)}
	if reason == moderation.FinishContentFilter {
		// Blocked: whatever the engine did next (finished, closed) does
		// not change the verdict.
		if final != nil && final.Err == nil {
			o.usage = newUsage(final.Usage.PromptTokens, final.Usage.CompletionTokens)
		}
		return o
	}
	o.finish = g.answer.FinishReason
	if final != nil {
		if final.Err != nil {
			o.engineErr = final.Err
			return o
		}
		o.usage = newUsage(final.Usage.PromptTokens, final.Usage.CompletionTokens)
	}
	return o
}

// serveModerated runs g through the moderation stage. Only text the stage
// delivered goes to the client; its fallback, notice and refusal texts do
// not (a client shows content, and an API client decides for itself what
// to show when finish_reason is "content_filter").
func (s *Server) serveModerated(w http.ResponseWriter, r *http.Request, g *generation) error {
	if g.stream {
		return s.streamModerated(w, r, g)
	}
	run := &engineRun{}
	var text strings.Builder
	sum, err := s.cfg.Moderation.Run(r.Context(), g.checkText, s.produce(g, run), func(ev moderation.Event) {
		if ev.Kind == moderation.EvDelivered {
			text.WriteString(ev.Text)
		}
	})
	if err != nil {
		if r.Context().Err() != nil {
			return nil // the client went away; the engine request is aborted
		}
		return moderationError(err)
	}
	o := outcome(g, sum.Reason, run)
	if o.engineErr != nil {
		return &APIError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: o.engineErr.Error()}
	}
	content := text.String()
	if o.finish == moderation.FinishContentFilter {
		// Parts that passed earlier checks belong to a withdrawn answer.
		content = ""
	}
	return writeJSON(w, g.format.whole(content, o.finish, o.usage))
}

// streamModerated streams what the stage delivers, one chunk per release.
// The SSE response starts with the first chunk, so a request refused before
// any text (a full queue, a closed engine) still gets an HTTP error.
func (s *Server) streamModerated(w http.ResponseWriter, r *http.Request, g *generation) error {
	run := &engineRun{}
	var sse *sseWriter
	sent := 0
	chunk := func(piece string, finish *string) {
		if sse == nil {
			sse = startSSE(w)
		}
		sse.event(g.format.chunk(piece, sent == 0, finish))
		sent++
	}
	var engineErr error
	sum, err := s.cfg.Moderation.Run(r.Context(), g.checkText, s.produce(g, run), func(ev moderation.Event) {
		switch ev.Kind {
		case moderation.EvDelivered:
			if ev.Text != "" {
				chunk(ev.Text, nil)
			}
		case moderation.EvFinished:
			// A passed answer finishes only after generation has ended, so
			// the engine's report is complete here.
			o := outcome(g, ev.Reason, run)
			if engineErr = o.engineErr; engineErr == nil {
				chunk("", &o.finish)
			}
		}
	})
	switch {
	case r.Context().Err() != nil:
		return nil // the client went away; the engine request is aborted
	case err == nil && engineErr == nil:
	case sse == nil && err != nil:
		return moderationError(err)
	case sse == nil:
		return &APIError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: engineErr.Error()}
	default:
		// The stream has started: the failure goes in an event, as in the
		// unmoderated stream, and without [DONE].
		msg := "moderation failed"
		if engineErr != nil {
			msg = engineErr.Error()
		}
		sse.event(errorBody{Error: errorDetail{Message: msg, Type: "server_error"}})
		return nil
	}
	if g.withUsage {
		// Counted after the stage has returned, when an aborted engine
		// request has closed and every token it sent has been counted.
		sse.event(g.format.usageChunk(outcome(g, sum.Reason, run).usage))
	}
	sse.done()
	return nil
}

// moderationError keeps API errors from the engine (429, context length,
// shutdown) and hides anything else behind a 500.
func moderationError(err error) error {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae
	}
	return &APIError{Status: http.StatusInternalServerError, Type: "server_error", Message: "moderation failed"}
}
