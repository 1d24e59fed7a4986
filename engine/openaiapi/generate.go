package openaiapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/openaiapi/wire"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// generation is one validated request ready for the engine.
type generation struct {
	id        string
	prompt    []int
	answer    textmodel.Answer
	stream    bool
	withUsage bool
	format    format
	param     string // the request field holding the prompt, for errors
	// checkText is what a prompt check reads: the last user message, or
	// the whole prompt of a legacy completion.
	checkText string
}

// compose checks the context length, then writes the answer the engine
// will stream. The check comes first so an absurd max_tokens is refused
// before anything is composed.
func (s *Server) compose(g *generation, msgs []textmodel.Message, p wire.Params) error {
	maxCtx := s.cfg.Engine.Config().Model.MaxContextLen
	if len(g.prompt)+p.MaxTokens > maxCtx || len(g.prompt) >= maxCtx {
		return contextError(&engine.ContextLengthError{MaxContext: maxCtx, Prompt: len(g.prompt), Completion: p.MaxTokens}, g.param)
	}
	if p.IgnoreEOS && p.MaxTokens == 0 {
		return badRequest("ignore_eos", "ignore_eos needs max_tokens (or max_completion_tokens) to say how many tokens to generate")
	}
	req := textmodel.ComposeRequest{Messages: msgs, MaxTokens: p.MaxTokens, Stop: p.Stop, Temperature: p.Temperature}
	if p.Seed != nil {
		req.Seed = *p.Seed
	} else {
		// Without a seed, sampling at a temperature differs per request,
		// as on a real server.
		req.Seed = randomSeed()
	}
	if p.IgnoreEOS {
		req.ForcedTokens = p.MaxTokens
	}
	g.answer = s.text.Compose(req)
	if !p.IgnoreEOS && len(g.answer.Tokens) < p.MinTokens {
		// min_tokens: the answer may not end before it has that many.
		req.ForcedTokens = p.MinTokens
		g.answer = s.text.Compose(req)
	}
	return nil
}

func contextError(e *engine.ContextLengthError, param string) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Param: param,
		Code: "context_length_exceeded", Message: e.Error()}
}

// submit hands the request to the engine, refusing with 429 when its queue
// is already deep.
func (s *Server) submit(ctx context.Context, g *generation) (<-chan live.Event, error) {
	if st := s.cfg.Engine.Stats(); st.Waiting >= s.cfg.MaxWaiting {
		return nil, &APIError{Status: http.StatusTooManyRequests, Type: "rate_limit_error", Code: "engine_saturated", RetryAfter: 1,
			Message: fmt.Sprintf("the engine has %d requests waiting (limit %d): retry later", st.Waiting, s.cfg.MaxWaiting)}
	}
	// The engine's observer counts the request in the serving metrics
	// under this source, apart from lab traffic on the same engine.
	ch, err := s.cfg.Engine.Submit(live.WithSource(ctx, metricsSource), engine.Request{ID: g.id, PromptTokens: g.prompt, OutputTokens: g.answer.Tokens})
	var cle *engine.ContextLengthError
	switch {
	case err == nil:
		return ch, nil
	case errors.As(err, &cle):
		return nil, contextError(cle, g.param)
	case errors.Is(err, live.ErrClosed):
		return nil, &APIError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: "the engine is shutting down"}
	default:
		// Submit fails only on validation (e.g. more KV cache than the GPU holds).
		return nil, badRequest(g.param, "%v", err)
	}
}

// serve runs a generation and writes its response, streamed or whole.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, g *generation) error {
	if s.cfg.Moderation != nil {
		return s.serveModerated(w, r, g)
	}
	if len(g.answer.Tokens) == 0 {
		// A stop string at the very start leaves nothing to generate.
		return s.writeEmpty(w, g)
	}
	ch, err := s.submit(r.Context(), g)
	if err != nil {
		return err
	}
	if g.stream {
		s.stream(w, g, ch)
		return nil
	}
	for ev := range ch {
		if !ev.Done {
			continue
		}
		if ev.Err != nil {
			return &APIError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: ev.Err.Error()}
		}
		return writeJSON(w, g.format.whole(g.answer.Text, g.answer.FinishReason, newUsage(ev.Usage.PromptTokens, ev.Usage.CompletionTokens)))
	}
	return nil // the client went away; the engine has aborted the request
}

// stream writes server-sent events as tokens leave the engine. Each token
// is a chunk; the last carries the finish reason; a usage chunk with empty
// choices follows when asked for; then [DONE].
func (s *Server) stream(w http.ResponseWriter, g *generation, ch <-chan live.Event) {
	sse := startSSE(w)
	n := len(g.answer.Tokens)
	sent := 0
	for ev := range ch {
		if ev.Done {
			if ev.Err != nil {
				sse.event(errorBody{Error: errorDetail{Message: ev.Err.Error(), Type: "server_error"}})
				return
			}
			if g.withUsage {
				sse.event(g.format.usageChunk(newUsage(ev.Usage.PromptTokens, ev.Usage.CompletionTokens)))
			}
			sse.done()
			return
		}
		if ev.Index < 0 || ev.Index >= n {
			continue
		}
		piece := g.answer.Pieces[ev.Index]
		var finish *string
		if ev.Index == n-1 {
			finish = &g.answer.FinishReason
		}
		// Pieces that end inside a multi-byte character are empty; vLLM
		// skips such deltas too.
		if piece == "" && sent > 0 && finish == nil {
			continue
		}
		sse.event(g.format.chunk(piece, sent == 0, finish))
		sent++
	}
}

// writeEmpty answers a generation with no tokens without the engine.
func (s *Server) writeEmpty(w http.ResponseWriter, g *generation) error {
	u := newUsage(len(g.prompt), 0)
	finish := textmodel.FinishStop
	if !g.stream {
		return writeJSON(w, g.format.whole("", finish, u))
	}
	sse := startSSE(w)
	sse.event(g.format.chunk("", true, &finish))
	if g.withUsage {
		sse.event(g.format.usageChunk(u))
	}
	sse.done()
	return nil
}

func writeJSON(w http.ResponseWriter, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(append(body, '\n'))
	return err
}

// sseWriter frames server-sent events and flushes each one, so nothing
// between the engine and the socket holds a token back.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func startSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	_ = s.rc.Flush()
	return s
}

// event writes one data line; write errors mean the client left, which the
// request context already reports to the engine.
func (s *sseWriter) event(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		return
	}
	s.raw(body)
}

func (s *sseWriter) done() { s.raw([]byte("[DONE]")) }

func (s *sseWriter) raw(data []byte) {
	buf := make([]byte, 0, len(data)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, data...)
	buf = append(buf, "\n\n"...)
	_, _ = s.w.Write(buf)
	_ = s.rc.Flush()
}
