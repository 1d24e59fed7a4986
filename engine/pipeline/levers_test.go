package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// The levers lesson's rows, each measured: streaming versus a buffered
// answer, and helper model calls in a row versus in parallel.

func TestBufferedAnswerArrivesAllAtOnce(t *testing.T) {
	cases := []struct {
		name      string
		buffered  bool
		failAfter int
		wantFirst time.Duration
		wantText  string
		wantDelta int
	}{
		{"streamed", false, 0, 300 * ms, wordsText(50), 50},
		{"buffered", true, 0, 300*ms + 49*20*ms, wordsText(50), 1},
		{"buffered, broken", true, 10, 0, "", 0}, // a blocking API shows nothing of a failed answer
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				clk := clock.Wall{}
				var prov Provider = &scriptProvider{clk: clk, ttft: 300 * ms, gap: 20 * ms, words: 50}
				if tc.failAfter > 0 {
					prov = &FaultyProvider{Inner: prov, Faults: Faults{FailAfter: tc.failAfter}, Clock: clk}
				}
				cfg := bareConfig()
				cfg.Gateway.Buffered = tc.buffered
				st := newMemStore()
				p := mustNew(t, cfg, Deps{Tiers: tiers(prov, nil), Messages: st})
				deltas := 0
				res := mustRun(t, p, t.Context(), Request{ConversationID: "c", Question: "How do returns work?"}, func(ev Event) {
					if ev.Kind == EventDelta {
						deltas++
					}
				})
				if res.Text != tc.wantText || deltas != tc.wantDelta || res.Summary.FirstWord != tc.wantFirst {
					t.Errorf("text %q, %d deltas, first word %v; want %d deltas, first word %v", res.Text, deltas, res.Summary.FirstWord, tc.wantDelta, tc.wantFirst)
				}
				if res.Summary.FirstToken != 300*ms {
					t.Errorf("model TTFT %v, want 300ms whatever the delivery", res.Summary.FirstToken)
				}
				if saved := st.lastSaved(t); saved.Content != res.Text {
					t.Errorf("saved %q, shown %q", saved.Content, res.Text)
				}
			})
		})
	}
}

func TestHelperCallsInARowAddUp(t *testing.T) {
	cases := []struct {
		name      string
		count     int
		parallel  bool
		wantFirst time.Duration
	}{
		// Each helper call: 200ms to first token + 9 gaps of 10ms = 290ms.
		{"none", 0, false, 200 * ms},
		{"three in a row", 3, false, 3*290*ms + 200*ms},
		{"three in parallel", 3, true, 290*ms + 200*ms},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				prov := &scriptProvider{clk: clock.Wall{}, ttft: 200 * ms, gap: 10 * ms, words: 10}
				cfg := bareConfig()
				cfg.Helpers = HelperCalls{Count: tc.count, Parallel: tc.parallel, MaxTokens: 10}
				p := mustNew(t, cfg, Deps{Tiers: tiers(prov, nil)})
				res := mustRun(t, p, t.Context(), Request{Question: "Where is my order?"}, nil)
				if res.Status != StatusComplete || res.Summary.FirstWord != tc.wantFirst {
					t.Errorf("status %s first word %v, want %v", res.Status, res.Summary.FirstWord, tc.wantFirst)
				}
				if calls, _, _ := prov.state(); calls != tc.count+1 {
					t.Errorf("%d provider calls, want %d", calls, tc.count+1)
				}
				one := tiers(prov, nil)[0].Cost(Usage{PromptTokens: 100, CompletionTokens: 10})
				if want := float64(tc.count+1) * one; diff(res.Summary.Cost, want) > 1e-12 {
					t.Errorf("cost %v, want %v (every call paid for)", res.Summary.Cost, want)
				}
			})
		})
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestMemoryConversations(t *testing.T) {
	m := NewMemoryConversations()
	for i, s := range []string{"a", "b", "c"} {
		if err := m.SaveMessage(t.Context(), SavedMessage{ConversationID: "x", Role: []string{"user", "assistant"}[i%2], Content: s}); err != nil {
			t.Fatal(err)
		}
	}
	turns, err := m.RecentTurns(t.Context(), "x", 2)
	if err != nil || len(turns) != 2 || turns[0].Content != "b" || turns[1].Content != "c" {
		t.Errorf("turns %+v err %v", turns, err)
	}
	if turns, err := m.RecentTurns(t.Context(), "other", 5); err != nil || len(turns) != 0 {
		t.Errorf("unknown conversation has %d turns, err %v", len(turns), err)
	}
}

// A provider wrapper that stops an answer with ErrContentFilter (the seam
// for output moderation) ends it blocked, without a fallback, and the
// saved message is the policy text, not the withdrawn answer.
func TestContentFilterBlocksTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := clock.Wall{}
		inner := &scriptProvider{clk: clk, ttft: 100 * ms, gap: 10 * ms, words: 40}
		filter := providerFunc(func(ctx context.Context, req ProviderRequest) (Stream, error) {
			s, err := inner.Stream(ctx, req)
			return &filterStream{Stream: s, after: 8}, err
		})
		small := &scriptProvider{clk: clk, words: 3}
		cfg := bareConfig()
		cfg.Gateway.Fallback = []string{"small"}
		st := newMemStore()
		p := mustNew(t, cfg, Deps{Tiers: tiers(filter, small), Messages: st})
		var last Event
		res := mustRun(t, p, t.Context(), Request{ConversationID: "c", Question: "Hi"}, func(ev Event) {
			if ev.Kind == EventError {
				last = ev
			}
		})
		if res.Status != StatusBlocked || res.FinishReason != "content_filter" || res.Text != "" {
			t.Fatalf("status %s finish %q text %q", res.Status, res.FinishReason, res.Text)
		}
		if last.Status != StatusBlocked || !strings.Contains(last.Err, "content policy") {
			t.Errorf("error event %+v", last)
		}
		if c, _, _ := small.state(); c != 0 {
			t.Error("fell back to another tier after a content-filter stop")
		}
		synctest.Wait() // let the provider's goroutine see the cancel
		if _, _, stopped := inner.state(); !stopped {
			t.Error("generation went on after the filter stopped the answer")
		}
		if s := st.lastSaved(t); s.Status != StatusBlocked || s.Content != res.Message {
			t.Errorf("saved %+v", s)
		}
	})
}

type filterStream struct {
	Stream
	after, n int
}

func (f *filterStream) Recv() (StreamEvent, error) {
	if f.n >= f.after {
		_ = f.Stream.Close() // the fake ends the answer itself; the inner stream's close error is not under test
		return StreamEvent{}, fmt.Errorf("card number in the answer: %w", ErrContentFilter)
	}
	ev, err := f.Stream.Recv()
	f.n += ev.Tokens
	return ev, err
}
