package benchmark

import (
	"context"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/upstream"
)

// HTTPTarget says where and how `bench` sends its requests.
type HTTPTarget struct {
	Client *upstream.Client
	Model  string
	// Chat sends /chat/completions with the prompt as one user message;
	// otherwise /completions.
	Chat bool
	// Count tokenizes generated text when the server reports no usage.
	Count func(string) int
}

// RunHTTP sends the requests as real streaming HTTP requests, each at its
// arrival time, at most maxConcurrency in flight (0: unlimited), and returns
// what each measured plus the run's wall duration. As in vLLM, a request
// waiting for a concurrency slot has not started: its TTFT counts from when
// it is sent.
func RunHTTP(ctx context.Context, t HTTPTarget, reqs []Request, maxConcurrency int) ([]Output, time.Duration) {
	clk := clock.Or(t.Client.Clock)
	outs := make([]Output, len(reqs))
	var sem chan struct{}
	if maxConcurrency > 0 {
		sem = make(chan struct{}, maxConcurrency)
	}
	var wg sync.WaitGroup
	start := clk.Now()
	for i, r := range reqs {
		_ = clock.Sleep(ctx, clk, r.Arrival-clk.Now().Sub(start)) // an early end shows in ctx.Err below
		if ctx.Err() != nil {
			outs[i] = Output{Error: ctx.Err().Error(), PromptLen: r.PromptLen}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if sem != nil {
				select {
				case sem <- struct{}{}:
					defer func() { <-sem }()
				case <-ctx.Done():
					outs[i] = Output{Error: ctx.Err().Error(), PromptLen: r.PromptLen}
					return
				}
			}
			outs[i] = sendOne(ctx, t, r, start)
			if outs[i].Start > r.Arrival {
				outs[i].Queue = outs[i].Start - r.Arrival
			}
		}()
	}
	wg.Wait()
	return outs, clk.Now().Sub(start)
}

// sendOne streams one request and measures it the way vLLM's request
// functions do: TTFT and ITL from the chunks that carry tokens (one chunk
// may carry several), the token count from the server's usage, else its
// text run through Count, else the chunks' own count.
func sendOne(ctx context.Context, t HTTPTarget, r Request, start time.Time) Output {
	o := Output{PromptLen: r.PromptLen}
	req := upstream.Request{Model: t.Model, MaxTokens: r.OutputLen, IgnoreEOS: true}
	zero := 0.0
	req.Temperature = &zero
	if t.Chat {
		req.Messages = []upstream.Message{{Role: "user", Content: r.Prompt}}
	} else {
		req.Prompt = r.Prompt
	}
	var first, last time.Time
	chunks := 0
	res, err := t.Client.Stream(ctx, req, func(c upstream.Chunk) {
		if c.Tokens == 0 {
			if chunks > 0 {
				last = c.At // a bare finish chunk still ends the response
			}
			return
		}
		if chunks == 0 {
			first = c.At
		} else {
			o.ITL = append(o.ITL, c.At.Sub(last))
		}
		chunks++
		last = c.At
	})
	sent := res.Sent
	o.TTFT = first.Sub(sent)
	o.Start = sent.Sub(start)
	o.Text = res.Text
	o.FinishReason = res.FinishReason
	if err != nil {
		o.Error = err.Error()
		return o
	}
	if chunks == 0 {
		o.Error = "stream carried no tokens"
		return o
	}
	o.Latency = last.Sub(sent)
	switch {
	case res.Usage != nil && res.Usage.CompletionTokens > 0:
		o.OutputTokens = res.Usage.CompletionTokens
	case t.Count != nil && res.Text != "":
		o.OutputTokens = t.Count(res.Text)
	default:
		o.OutputTokens = res.Tokens
	}
	o.Success = true
	return o
}
