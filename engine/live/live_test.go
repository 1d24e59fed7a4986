package live

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
)

// newTestEngine starts an engine on clk; nil is the wall clock, which a
// synctest bubble makes virtual.
func newTestEngine(t *testing.T, clk clock.Clock) *Engine {
	t.Helper()
	e, err := New(Config{Engine: engine.DefaultConfig(), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func request(id string, prompt, out int) engine.Request {
	p := make([]int, prompt)
	for i := range p {
		p[i] = i*31 + len(id)
	}
	o := make([]int, out)
	for i := range o {
		o[i] = 1000 + i
	}
	return engine.Request{ID: id, PromptTokens: p, OutputTokens: o}
}

// TestTokensPacedAndOrdered: in a synctest bubble, tokens arrive in order, each
// stamped with exactly the time the virtual-clock simulation gives it, and
// never delivered before the clock reached that time.
func TestTokensPacedAndOrdered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		e := newTestEngine(t, nil)
		req := request("a", 700, 40)
		want, err := engine.Simulate(engine.DefaultConfig(), []engine.Request{req}, engine.SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ch, err := e.Submit(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		var final Event
		for ev := range ch {
			if ev.Done {
				final = ev
				continue
			}
			if ev.Index != i || ev.Token != 1000+i {
				t.Fatalf("event %d: index %d token %d", i, ev.Index, ev.Token)
			}
			if ev.Time != want.Requests[0].TokenTimes[i] {
				t.Errorf("token %d at %v, simulation says %v", i, ev.Time, want.Requests[0].TokenTimes[i])
			}
			if !ev.At.Equal(start.Add(ev.Time)) || time.Now().Before(ev.At) {
				t.Errorf("token %d delivered at clock %v before its time %v", i, time.Now(), ev.At)
			}
			i++
		}
		if i != 40 || final.FinishReason != engine.FinishStop || final.Usage.CompletionTokens != 40 || final.Usage.PromptTokens != 700 {
			t.Fatalf("got %d tokens, final %+v", i, final)
		}
		if st := e.Stats(); st.FinishedRequests != 1 || st.Running != 0 || st.GenerationTokens != 40 {
			t.Errorf("stats after run: %+v", st)
		}
	})
}

// TestCancelFreesBlocks: cancelling the context aborts the request and its
// KV blocks return to the pool.
func TestCancelFreesBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTestEngine(t, nil)
		ctx, cancel := context.WithCancel(context.Background())
		req := request("b", 4000, 60000)
		ch, err := e.Submit(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		<-ch
		<-ch
		cancel()
		for range ch { // drains, then the channel closes without a final event
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			st := e.Stats()
			if st.FinishedRequests == 1 && st.Running == 0 && st.Waiting == 0 && st.KVUsage == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("request not aborted: %+v", st)
			}
			time.Sleep(time.Millisecond)
		}
	})
}

// TestSubmitValidates: bad requests fail synchronously with the engine's
// error; duplicates are refused.
func TestSubmitValidates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTestEngine(t, nil)
		long := request("c", 131000, 1)
		long.MaxTokens = 5000
		_, err := e.Submit(context.Background(), long)
		var cle *engine.ContextLengthError
		if !errors.As(err, &cle) {
			t.Fatalf("err = %v, want a context length error", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if _, err := e.Submit(ctx, request("d", 10, 100000)); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Submit(ctx, request("d", 10, 5)); err == nil {
			t.Error("duplicate id accepted")
		}
	})
}

// TestSubscribeDropsSlowSubscriber: a subscriber that never reads is
// dropped (its channel closed) instead of stalling the engine, while a
// reader that keeps up sees every step.
func TestSubscribeDropsSlowSubscriber(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTestEngine(t, nil)
		slow, cancelSlow := e.Subscribe(2)
		defer cancelSlow()
		fast, cancelFast := e.Subscribe(4096)
		ch, err := e.Submit(context.Background(), request("e", 100, 50))
		if err != nil {
			t.Fatal(err)
		}
		for range ch {
		}
		cancelFast()
		steps, decodes := 0, 0
		for tr := range fast {
			steps++
			decodes += tr.DecodeTokens
			if len(tr.Batch) != 1 || tr.Batch[0].ID != "e" {
				t.Fatalf("trace batch %+v", tr.Batch)
			}
		}
		if decodes != 49 { // the first token comes from the prefill step
			t.Errorf("saw %d decode tokens over %d steps, want 49", decodes, steps)
		}
		n := 0
		for range slow {
			n++
		}
		if n > 2 {
			t.Errorf("slow subscriber got %d traces through a 2-slot buffer", n)
		}
	})
}

// TestCloseEndsStreams: closing the engine ends running requests with
// ErrClosed and refuses new ones.
func TestCloseEndsStreams(t *testing.T) {
	e, err := New(Config{Engine: engine.DefaultConfig()}) // wall clock: slow enough to still be running
	if err != nil {
		t.Fatal(err)
	}
	ch, err := e.Submit(context.Background(), request("f", 10, 100000))
	if err != nil {
		t.Fatal(err)
	}
	<-ch
	e.Close()
	var last Event
	for ev := range ch {
		last = ev
	}
	if !last.Done || !errors.Is(last.Err, ErrClosed) {
		t.Errorf("last event %+v, want ErrClosed", last)
	}
	if _, err := e.Submit(context.Background(), request("g", 10, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("submit after close: %v", err)
	}
}
