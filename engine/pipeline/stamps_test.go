package pipeline

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// lateReader is a provider whose stream is read late: each chunk reaches
// the gateway lag after the engine made it, as on a starved host.
type lateReader struct {
	inner Provider
	lag   time.Duration
}

func (p lateReader) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	s, err := p.inner.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	return lateStream{Stream: s, lag: p.lag}, nil
}

type lateStream struct {
	Stream
	lag time.Duration
}

func (s lateStream) Recv() (StreamEvent, error) {
	time.Sleep(s.lag)
	return s.Stream.Recv()
}

// The answer's figures come from the engine's stamps: read 40 ms late
// chunk after chunk, the stream still shows the first token, the first
// word and the end where the modelled GPU put them.
func TestTokenTimesAreTheEngines(t *testing.T) {
	summary := func(lag time.Duration) Summary {
		var out Summary
		synctest.Test(t, func(t *testing.T) {
			le, err := live.New(live.Config{Engine: engine.DefaultConfig()})
			if err != nil {
				t.Fatal(err)
			}
			defer le.Close()
			st := newMemStore()
			p, err := New(bareConfig(), Deps{Tiers: tiers(lateReader{inner: NewEngineProvider(le), lag: lag}, nil), Retriever: st, Orders: st})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Run(t.Context(), Request{ConversationID: "c", Question: "How long does standard shipping take?"}, nil)
			if err != nil || res.Status != StatusComplete {
				t.Fatalf("run: %v, %s", err, res.Status)
			}
			out = res.Summary
		})
		return out
	}
	calm, late := summary(0), summary(40*time.Millisecond)
	if late.FirstToken != calm.FirstToken || late.FirstWord != calm.FirstWord || late.Total != calm.Total {
		t.Errorf("read late: first token %v, first word %v, total %v; on time: %v, %v, %v",
			late.FirstToken, late.FirstWord, late.Total, calm.FirstToken, calm.FirstWord, calm.Total)
	}
	if late.Elapsed <= calm.Elapsed {
		t.Errorf("the late reader finished at %v, the calm one at %v: the lag did not happen", late.Elapsed, calm.Elapsed)
	}
}
