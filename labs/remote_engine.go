package labs

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/engine/upstream"
)

// remote serves a lab's engine requests on an OpenAI-compatible server, so
// the lab code that waits on a live engine measures the server instead.
type remote struct {
	client *upstream.Client
	model  string
}

// label names the server on every event it times (live.Event.Server).
func (r *remote) label() string { return r.client.BaseURL + " (" + r.model + ")" }

// submit sends req as a streaming text completion: the prompt's ids
// decoded to text, exactly as many tokens as the lab asked for (ignore_eos,
// which vLLM, SGLang and llama.cpp honour; Ollama ends at the model's own
// end with finish_reason "stop" and fewer tokens), greedy. Each token a
// chunk carries (upstream.Chunk.Tokens) is a token event whose GPU time is
// the time since the request was sent (its Time counts from start, the
// engine's zero, as a live engine's does), as measured here: the server's
// own queueing, prefill and decode, and the network. A reasoning model's
// thinking tokens are events marked Thinking, with no answer id; the
// answer's tokens keep the ids the lab asked for, in order, so its text
// panels show its own composed answer while the timings are the server's
// (the labs say so on the page: see ComposedNote). Cancelling ctx closes
// the connection, which a server takes as an abort, and closes the
// channel without a final event, as a live engine does.
func (r *remote) submit(ctx context.Context, req engine.Request, start time.Time) (<-chan live.Event, error) {
	want := req.MaxTokens
	if want <= 0 {
		want = len(req.OutputTokens)
	}
	if want <= 0 {
		return nil, fmt.Errorf("request %s: the server needs a token limit", req.ID)
	}
	zero := 0.0
	ureq := upstream.Request{Model: r.model, Prompt: textmodel.Decode(req.PromptTokens), MaxTokens: want,
		IgnoreEOS: req.IgnoreEOS || len(req.OutputTokens) > 0, Temperature: &zero}
	countSent(ctx)
	out := make(chan live.Event, 64)
	go func() {
		defer close(out)
		sent := clock.Or(r.client.Clock).Now()
		s := &remoteStream{ids: req.OutputTokens, start: start, sent: sent, first: sent, last: sent, server: r.label(),
			send: func(ev live.Event) {
				select {
				case out <- ev:
				case <-ctx.Done():
				}
			}}
		res, err := r.client.Stream(ctx, ureq, s.chunk)
		if ctx.Err() != nil {
			return // the caller left: no final event, as on a live engine
		}
		s.flushQuiet()
		n := s.n
		done := live.Event{Done: true, Index: n, Time: s.last.Sub(start), At: s.last, GPU: s.last.Sub(sent), Server: s.server,
			FinishReason: res.FinishReason, Usage: engine.Usage{PromptTokens: len(req.PromptTokens), CompletionTokens: n},
			Timing: engine.Timing{Arrival: sent.Sub(start), FirstScheduled: sent.Sub(start), FirstToken: s.first.Sub(start), End: s.last.Sub(start)}}
		if err == nil && ureq.IgnoreEOS && n < want && res.FinishReason == engine.FinishStop {
			err = &upstream.ShortAnswer{Wrote: n, Asked: want} // its figures are not the run asked for
		}
		if err != nil {
			done.Err = fmt.Errorf("upstream %s: %w", r.client.BaseURL, err)
		} else if n == 0 {
			done.Err = fmt.Errorf("upstream %s: the answer carried no tokens", r.client.BaseURL)
		}
		if done.FinishReason == "" {
			done.FinishReason = engine.FinishLength
		}
		s.send(done)
	}()
	return out, nil
}

// remoteStream turns one answer's chunks into token events.
type remoteStream struct {
	ids         []int     // the answer's ids, as the lab composed them
	start, sent time.Time // the engine's zero; when the request went out
	server      string
	send        func(live.Event)
	// n counts the token events sent, answered those of the answer;
	// thinking is the kind of the latest tokens.
	n, answered int
	thinking    bool
	// quiet holds the arrivals of tokens that came before any chunk said
	// whose they are (a chunk with neither answer nor thinking text, such
	// as a <think> tag the client took out).
	quiet       []time.Time
	first, last time.Time // the first and latest token's arrival
}

// chunk sends the events of one chunk's tokens: answer tokens when it
// carries answer text, thinking tokens when it carries only thinking.
// A chunk with neither is of the kind before it; before any chunk has
// said, its tokens wait for the next chunk that does and take its kind,
// as the pipeline's gateway routes them. A merged chunk with both counts
// as answer, as the gateway counts it.
func (s *remoteStream) chunk(c upstream.Chunk) {
	if c.Tokens == 0 {
		return
	}
	if s.n == 0 && len(s.quiet) == 0 {
		s.first = c.At
	}
	s.last = c.At
	switch {
	case c.Text != "":
		s.thinking = false
	case c.Reasoning != "":
		s.thinking = true
	case s.n == 0:
		for range c.Tokens {
			s.quiet = append(s.quiet, c.At)
		}
		return
	}
	s.flushQuiet()
	for range c.Tokens {
		s.token(c.At)
	}
}

// flushQuiet sends the tokens still waiting for a kind, as the kind the
// latest chunk said (answer, when the stream ends before any did).
func (s *remoteStream) flushQuiet() {
	for _, at := range s.quiet {
		s.token(at)
	}
	s.quiet = s.quiet[:0]
}

// token sends one token event, arrived at at.
func (s *remoteStream) token(at time.Time) {
	ev := live.Event{Index: s.n, Time: at.Sub(s.start), At: at, GPU: at.Sub(s.sent), Thinking: s.thinking, Server: s.server}
	if !s.thinking {
		if s.answered < len(s.ids) {
			ev.Token = s.ids[s.answered]
		}
		s.answered++
	}
	s.send(ev)
	s.n++
}
