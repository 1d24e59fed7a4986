package web

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// panickyProvider panics on the pipeline's goroutine after `after` chunks
// of the inner stream (0: in Stream itself), a bug in a provider, until
// it is fixed.
type panickyProvider struct {
	inner pipeline.Provider
	after int
	fixed *atomic.Bool
}

func (p panickyProvider) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	if p.fixed.Load() {
		return p.inner.Stream(ctx, req)
	}
	if p.after == 0 {
		panic("provider bug")
	}
	s, err := p.inner.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	return &panickyStream{Stream: s, left: p.after}, nil
}

type panickyStream struct {
	pipeline.Stream
	left int
}

func (s *panickyStream) Recv() (pipeline.StreamEvent, error) {
	if s.left == 0 {
		panic("provider bug mid-stream")
	}
	s.left--
	return s.Stream.Recv()
}

// A panic while answering is the stream runner's to catch: the learner
// gets a message with a reference and no internals, the server keeps
// serving, and the conversation is free for the next question.
func TestChatPanicIsContained(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after int
	}{
		{"before the first token", 0},
		{"mid-answer", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tiers := chatTiers(t)
			fixed := new(atomic.Bool)
			for i := range tiers {
				tiers[i].Provider = panickyProvider{inner: tiers[i].Provider, after: tc.after, fixed: fixed}
			}
			_, ts := newChatServer(t, tiers, nil)
			c := client(t)
			conv := newConversation(t, c, ts.URL)
			status, body := chatSend(t, c, ts.URL, conv, "How long do refunds take?")
			if status != http.StatusOK || !strings.Contains(body, "The answer failed on our side (reference ") {
				t.Errorf("status %d, body lacks the failure message:\n%s", status, body)
			}
			for _, internal := range []string{"panic", "goroutine", ".go:", "provider bug"} {
				if strings.Contains(body, internal) {
					t.Errorf("the page was shown %q", internal)
				}
			}
			if strings.LastIndex(body, "#chat-error") < strings.LastIndex(body, "#chat-live") {
				t.Errorf("the stream does not end with the error after clearing the live turn:\n%s", body)
			}
			// The conversation was released: with the provider fixed, the
			// same conversation answers.
			fixed.Store(true)
			if status, body := chatSend(t, c, ts.URL, conv, "Do you accept paypal?"); status != http.StatusOK || strings.Contains(body, "failed on our side") {
				t.Errorf("the next question: %d\n%.300s", status, body)
			}
		})
	}
}
