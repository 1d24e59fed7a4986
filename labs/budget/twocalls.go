package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	enginelive "github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// How a request's two model calls run (the modelCalls knob).
const (
	callsOne      = "one"
	callsSequence = "sequence"
	callsTogether = "together"
)

// secondCallTokens is the second call's answer: a one-line case summary.
const secondCallTokens = 60

// secondCallTask opens the second call's system message. It makes the
// call a different prompt from the answer's (so neither reuses the other's
// cached prefix) over the same conversation.
const secondCallTask = "Task: summarise this case in one line for the support team's queue; do not answer the customer.\n"

// secondRequest is the second call for the answer call req: the same
// conversation under another task, and a short answer.
func secondRequest(req pipeline.ProviderRequest) pipeline.ProviderRequest {
	side := req
	side.ID = req.ID + "-summary"
	side.Messages = slices.Clone(req.Messages)
	if len(side.Messages) > 0 && side.Messages[0].Role == textmodel.RoleSystem {
		side.Messages[0].Content = secondCallTask + side.Messages[0].Content
	} else {
		side.Messages = slices.Insert(side.Messages, 0, textmodel.Message{Role: textmodel.RoleSystem, Content: secondCallTask})
	}
	side.MaxTokens, side.ExactTokens = secondCallTokens, secondCallTokens
	return side
}

// secondCall runs the second model call of the live request beside the
// answer call, on the same engine, and times it.
type secondCall struct {
	// ctx is the run's: the gateway ends its own call's context when the
	// answer is done, and a summary sent together may outlast the answer.
	ctx      context.Context
	together bool
	clk      clock.Clock

	wg sync.WaitGroup
	mu sync.Mutex
	// start is when it was sent on the request's modelled timeline (the
	// answer call's start, see began); sent the same on the host's clock.
	start time.Duration
	sent  time.Time
	// took is its modelled time from sending to the end of its stream;
	// done says it is over.
	took time.Duration
	done bool
	err  error
	// firstTok and lastTok are when its first and last tokens came (since
	// it was sent, on the modelled timeline), tokens how many, prompt its
	// prompt's length: the parts of its why panel.
	firstTok, lastTok time.Duration
	tokens, prompt    int
}

// began notes the answer call's start on the request's modelled timeline
// (the first attempt's stage start): the second call is sent with it.
func (c *secondCall) began(at time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sent.IsZero() {
		c.start = at
	}
}

// since is a stream event's modelled time since the call was sent: its
// own when the provider models one, else the host's.
func (c *secondCall) since(ev pipeline.StreamEvent) time.Duration {
	if ev.Since > 0 {
		return ev.Since
	}
	return c.clk.Now().Sub(c.sent)
}

// wrap makes every tier's provider run the second call with its answer.
func (c *secondCall) wrap(tiers []pipeline.Tier) []pipeline.Tier {
	return pipeline.WrapProviders(tiers, func(inner pipeline.Provider) pipeline.Provider {
		return twoCallProvider{inner: inner, call: c}
	})
}

// wait blocks until the second call is over and returns its error.
func (c *secondCall) wait() error {
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// span is the second call's start and end since the request's start;
// done is false while it runs.
func (c *secondCall) span() (start, end time.Duration, done bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.start, c.start + c.took, c.done
}

// drain reads the second call's stream to its end.
func (c *secondCall) drain(s pipeline.Stream) {
	defer s.Close()
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			c.note(ev)
		}
		if err != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("second model call: %w", err)
			c.mu.Unlock()
			return
		}
	}
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
}

// twoCallProvider sends the second call with each answer call: first, and
// to its end, when in sequence; at the same moment when together.
type twoCallProvider struct {
	inner pipeline.Provider
	call  *secondCall
}

// Stream starts the answer call with the second call before or beside it.
func (p twoCallProvider) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	c := p.call
	c.mu.Lock()
	c.sent = c.clk.Now()
	c.mu.Unlock()
	// Both calls carry the moment the modelled timeline sends them (see
	// live.WithSentAt), so a provider engine with other tenants on it
	// takes them there however late the host is.
	sideCtx := c.ctx
	sent, modelled := enginelive.SentAt(ctx)
	if modelled {
		sideCtx = enginelive.WithSentAt(c.ctx, sent)
	}
	side, err := p.inner.Stream(sideCtx, secondRequest(req))
	if err != nil {
		return nil, fmt.Errorf("second model call: %w", err)
	}
	if !c.together {
		c.drain(side)
		if err := c.wait(); err != nil {
			return nil, err
		}
		if modelled {
			c.mu.Lock()
			ctx = enginelive.WithSentAt(ctx, sent.Add(c.took))
			c.mu.Unlock()
		}
		answer, err := p.inner.Stream(ctx, req)
		if err != nil {
			return nil, err
		}
		// The answer is sent when the summary's stream has ended, on
		// the modelled timeline too.
		c.mu.Lock()
		defer c.mu.Unlock()
		return after{Stream: answer, by: c.took}, nil
	}
	c.wg.Go(func() { c.drain(side) })
	return p.inner.Stream(ctx, req)
}

// after is a stream sent by after another call on the modelled timeline:
// its modelled times count from the call before it.
type after struct {
	pipeline.Stream
	by time.Duration
}

// Recv shifts a modelled event by the call before.
func (a after) Recv() (pipeline.StreamEvent, error) {
	ev, err := a.Stream.Recv()
	if ev.Since > 0 {
		ev.Since += a.by
	}
	return ev, err
}

// secondRow is the waterfall row of the second model call, drawn from its
// start to now while it runs.
func (v *view) secondRow() labs.SpanRow {
	row := labs.SpanRow{Label: "second model call"}
	start, end, done := v.second.span()
	if !done {
		return row
	}
	return labs.SpanRow{Label: row.Label, Spans: []labs.Span{{Name: row.Label, Start: pipelinelab.MS(start), End: pipelinelab.MS(end)}}}
}

// secondNote says how the second call ran beside the answer.
func (v *view) secondNote() string {
	if v.second.together {
		return "sent with the answer, sharing the GPU's batch"
	}
	return "sent first; the answer waited for it"
}

// twoCallsPreset is the lesson's settings with two model calls run as
// calls says. The figures its note states are held by TestTwoModelCalls.
func twoCallsPreset(calls string) labs.Example[params] {
	p := defaults
	p.modelCalls = calls
	if calls == callsSequence {
		return labs.Example[params]{Name: "Two model calls, one after the other", Params: p,
			Note: "Each request also asks the model for a one-line case summary and sends the answer only once the summary is back. The first word waits for the whole summary, close to half a second: it comes at about 700 ms instead of about 230 ms with one call."}
	}
	return labs.Example[params]{Name: "Two model calls at the same time", Params: p,
		Note: "The same two calls sent together to the same engine. The first word no longer waits for the summary and comes at about 250 ms. Sharing the GPU is not free, though: both calls run a little slower than alone, the first word some 15 ms later than with one call."}
}
