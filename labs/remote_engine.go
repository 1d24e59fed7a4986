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

// submit sends req as a streaming text completion: the prompt's ids
// decoded to text, exactly as many tokens as the lab asked for (ignore_eos,
// which vLLM, SGLang and llama.cpp honour; Ollama ends at the model's own
// end with finish_reason "stop" and fewer tokens), greedy. Each token a
// chunk carries (upstream.Chunk.Tokens) is a token event whose GPU time is the time since the request was sent (its
// Time counts from start, the engine's zero, as a live engine's does), as
// measured here: the server's own queueing, prefill and decode, and the
// network. The events keep the ids the lab asked for, so its text panels
// show its own composed answer while the timings are the server's.
// Cancelling ctx closes the connection, which a server takes as an abort,
// and closes the channel without a final event, as a live engine does.
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
		clk := clock.Or(r.client.Clock)
		sent := clk.Now()
		n := 0
		send := func(ev live.Event) bool {
			select {
			case out <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		var first, last = sent, sent
		res, err := r.client.Stream(ctx, ureq, func(c upstream.Chunk) {
			if c.Tokens == 0 {
				return
			}
			if n == 0 {
				first = c.At
			}
			last = c.At
			// A chunk may carry several tokens (the server merged them):
			// each is a token event at the chunk's arrival.
			for range c.Tokens {
				token := 0
				if n < len(req.OutputTokens) {
					token = req.OutputTokens[n]
				}
				send(live.Event{Token: token, Index: n, Time: c.At.Sub(start), At: c.At, GPU: c.At.Sub(sent)})
				n++
			}
		})
		if ctx.Err() != nil {
			return // the caller left: no final event, as on a live engine
		}
		done := live.Event{Done: true, Index: n, Time: last.Sub(start), At: last, GPU: last.Sub(sent),
			FinishReason: res.FinishReason, Usage: engine.Usage{PromptTokens: len(req.PromptTokens), CompletionTokens: n},
			Timing: engine.Timing{Arrival: sent.Sub(start), FirstScheduled: sent.Sub(start), FirstToken: first.Sub(start), End: last.Sub(start)}}
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
		send(done)
	}()
	return out, nil
}
