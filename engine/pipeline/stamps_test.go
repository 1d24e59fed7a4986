package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
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

// lateClock is a synctest bubble's clock whose every wait ends oversleep
// late, as on a host whose cores are taken by other work.
type lateClock struct{ oversleep time.Duration }

func (lateClock) Now() time.Time { return time.Now() }

func (c lateClock) After(d time.Duration) <-chan time.Time { return time.After(d + c.oversleep) }

// On a starved host (every wait of the stages, the network and the
// engine's runner ends late) the figures are the modelled ones: each
// stage its drawn service time, lookups together ending with the slowest,
// the model call from the moment the prompt was ready, plus the network
// and the GPU. The handler's times are kept beside them and are later;
// the first-token timeout and the deadline are read on the modelled
// timeline, so a limit the modelled run stays inside does not fire.
func TestStageTimesAreModelled(t *testing.T) {
	cfg := bareConfig()
	cfg.Guard = GuardConfig{Enabled: true, Latency: Latency{Base: 80 * time.Millisecond}}
	cfg.Context = ContextConfig{Parallel: true, TopK: 3, Order: true,
		RetrievalLatency: Latency{Base: 120 * time.Millisecond}, OrderLatency: Latency{Base: 60 * time.Millisecond, Jitter: 20 * time.Millisecond}}
	cfg.Gateway.Overhead = Latency{Base: 15 * time.Millisecond}
	cfg.Gateway.ExactTokens = 40
	type run struct {
		res   *Result
		spans map[string]Span
	}
	for _, tc := range []struct {
		name    string
		network bool
		limits  bool // a first-token timeout and a deadline the modelled run stays inside
	}{
		{"engine alone", false, false},
		{"across a network", true, false},
		{"with a first-token timeout and a deadline", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfg
			if tc.limits {
				cfg.Gateway.FirstTokenTimeout = 600 * time.Millisecond
				cfg.Deadline = 2 * time.Second
			}
			once := func(late time.Duration) run {
				var out run
				synctest.Test(t, func(t *testing.T) {
					var clk clock.Clock = clock.Wall{}
					if late > 0 {
						clk = lateClock{oversleep: late}
					}
					le, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clk})
					if err != nil {
						t.Fatal(err)
					}
					defer le.Close()
					ep := NewEngineProvider(le)
					ep.Clock = clk
					var prov Provider = ep
					if tc.network {
						prov = NetworkProvider{Inner: ep, RTT: 190 * time.Millisecond, Handshakes: FreshConnectionHandshakes, Clock: clk}
					}
					st := newMemStore()
					p, err := New(cfg, Deps{Tiers: tiers(prov, nil), Retriever: st, Orders: st, Clock: clk})
					if err != nil {
						t.Fatal(err)
					}
					res, err := p.Run(t.Context(), Request{Customer: "cust-1", Question: "Where is my order?", Seed: 3}, nil)
					if err != nil || res.Status != StatusComplete {
						t.Fatalf("run: %v, %s %v", err, res.Status, res.Err)
					}
					out = run{res: res, spans: map[string]Span{}}
					for _, s := range res.Spans {
						out.spans[s.Stage] = s
					}
				})
				return out
			}
			calm, starved := once(0), once(30*time.Millisecond)
			c, s := calm.res.Summary, starved.res.Summary
			if s.FirstToken != c.FirstToken || s.FirstWord != c.FirstWord || s.Total != c.Total {
				t.Errorf("starved: first token %v, first word %v, total %v; calm: %v, %v, %v",
					s.FirstToken, s.FirstWord, s.Total, c.FirstToken, c.FirstWord, c.Total)
			}
			for _, stage := range []string{StageGuardrail, StageRetrieval, StageOrder, StageContext, StagePrompt, StageFirstToken} {
				if calm.spans[stage].Start != starved.spans[stage].Start || calm.spans[stage].End != starved.spans[stage].End {
					t.Errorf("%s: %v–%v starved, %v–%v calm", stage, starved.spans[stage].Start, starved.spans[stage].End,
						calm.spans[stage].Start, calm.spans[stage].End)
				}
			}
			// The modelled timeline as the stages drew it: guardrail 80 ms,
			// then lookups together (the slower, retrieval, 120 ms), then
			// 15 ms of prompt and gateway.
			if got := calm.spans[StagePrompt].End; got != 215*time.Millisecond {
				t.Errorf("prompt ready at %v, want 215ms (80 + max(120, order) + 15)", got)
			}
			if got := calm.spans[StageContext]; got.Start != 80*time.Millisecond || got.End != 200*time.Millisecond {
				t.Errorf("context %v–%v, want 80ms–200ms", got.Start, got.End)
			}
			if s.Handler.FirstWord <= s.FirstWord || starved.spans[StagePrompt].WallEnd <= starved.spans[StagePrompt].End {
				t.Errorf("starved handler first word %v, prompt end %v; modelled %v, %v: the host's lateness is not kept",
					s.Handler.FirstWord, starved.spans[StagePrompt].WallEnd, s.FirstWord, starved.spans[StagePrompt].End)
			}
			t.Logf("first word %v modelled, %v calm handler, %v starved handler", s.FirstWord, c.Handler.FirstWord, s.Handler.FirstWord)
		})
	}
}

// modelledProvider answers at once on the handler's clock but models its
// tokens at first, first+gap, …: a provider whose modelled time runs
// apart from the host's, so a test can tell which of the two a limit
// reads.
type modelledProvider struct {
	first, gap time.Duration
	words      int
}

func (p modelledProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan streamItem, p.words+1)
	now := time.Now()
	for i := range p.words {
		since := p.first + time.Duration(i)*p.gap
		out <- streamItem{ev: StreamEvent{Text: fmt.Sprintf(" w%d", i), Tokens: 1, At: now.Add(since), Since: since}}
	}
	end := p.first + time.Duration(p.words)*p.gap
	out <- streamItem{ev: StreamEvent{Done: true, FinishReason: "stop", At: now.Add(end), Since: end,
		Usage: Usage{PromptTokens: 100, CompletionTokens: p.words}}}
	close(out)
	return &chanStream{ctx: ctx, cancel: cancel, ch: out}, nil
}

// Limits are read on the modelled timeline: a primary whose first token
// is modelled at 6 s times out at 5 s and the backup answers from there,
// though every chunk reached the gateway at once; an overall timeout cuts
// the answer at the last token modelled before it; the request deadline
// likewise.
func TestLimitsReadTheModelledTimeline(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name                string
		ftt, overall, dline time.Duration
		wantStatus, tier    string
		wantFirst           time.Duration
		wantTokens          int
		wantOutcomes        string
	}{
		{"first-token timeout", 5 * time.Second, 0, 0, StatusComplete, "small", 5*time.Second + 300*ms, 20,
			OutcomeFirstTokenTimeout + "," + OutcomeAnswered},
		{"overall timeout", 0, 6100 * ms, 0, StatusTimeout, "medium", 6 * time.Second, 11, OutcomeTimeout},
		{"deadline", 0, 0, 6100 * ms, StatusTimeout, "medium", 6 * time.Second, 11, OutcomeTimeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := bareConfig()
				cfg.Gateway.Fallback = []string{"small"}
				cfg.Gateway.FirstTokenTimeout, cfg.Gateway.OverallTimeout, cfg.Deadline = tc.ftt, tc.overall, tc.dline
				p := mustNew(t, cfg, Deps{Tiers: tiers(modelledProvider{first: 6 * time.Second, gap: 10 * ms, words: 20},
					modelledProvider{first: 300 * ms, gap: 5 * ms, words: 20})})
				res, err := p.Run(t.Context(), Request{Question: "Where is my order?"}, nil)
				if err != nil {
					t.Fatal(err)
				}
				var outs []string
				for _, a := range res.Attempts {
					outs = append(outs, a.Outcome)
				}
				if res.Status != tc.wantStatus || res.Tier != tc.tier || strings.Join(outs, ",") != tc.wantOutcomes {
					t.Errorf("status %s on %s, outcomes %v; want %s on %s, %s", res.Status, res.Tier, outs, tc.wantStatus, tc.tier, tc.wantOutcomes)
				}
				if res.Summary.FirstWord != tc.wantFirst || res.Usage.CompletionTokens != tc.wantTokens {
					t.Errorf("first word %v, %d tokens shown; want %v, %d", res.Summary.FirstWord, res.Usage.CompletionTokens, tc.wantFirst, tc.wantTokens)
				}
				if res.Summary.Handler.Total > time.Second {
					t.Errorf("the handler took %v: the limits waited on the host's clock", res.Summary.Handler.Total)
				}
			})
		})
	}
}
