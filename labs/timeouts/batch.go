package timeouts

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// spacing is the gap between request starts: the batch arrives as a short
// burst of traffic rather than one instant.
const spacing = 100 * time.Millisecond

// stallGap is the silence between two chunks of one answer that the
// timeline marks as a stall. Healthy chunks arrive tens of ms apart.
const stallGap = 500 * time.Millisecond

// variant is one setting of the two timeouts and the deadline; the fault,
// backup and requests are the learner's in every variant.
type variant struct {
	name     string
	ftt      time.Duration
	overall  time.Duration
	deadline time.Duration
}

// sameLimits reports whether two variants would run the batch identically.
func (v variant) sameLimits(o variant) bool {
	return v.ftt == o.ftt && v.overall == o.overall && v.deadline == o.deadline
}

// comparisons are the settings every run is compared with: no limit at all
// (not even the learner's deadline, or the row would still show timeouts),
// and a web service's one-second limit on the whole call.
func comparisons(s settings) []variant {
	return []variant{
		{name: "No timeout", ftt: 0, overall: 0, deadline: 0},
		{name: "Web-service timeout (1 s overall)", ftt: 0, overall: time.Second, deadline: s.deadline},
	}
}

// variants are the learner's setting first, then the comparisons that
// differ from it (one that equals it is not run twice).
func variants(s settings) []variant {
	mine := variant{name: "Your setting", ftt: s.ftt, overall: s.overall, deadline: s.deadline}
	out := []variant{mine}
	for _, c := range comparisons(s) {
		if !c.sameLimits(mine) {
			out = append(out, c)
		}
	}
	return out
}

// attemptRec is one call to one tier as the request's events showed it.
// Times are offsets from the request's start.
type attemptRec struct {
	tier       string
	start, end time.Duration
	first      time.Duration
	hasFirst   bool
	ended      bool
}

// span is an interval from the request's start.
type span struct{ start, end time.Duration }

// record is one request of a batch, filled from its pipeline events.
type record struct {
	slowed    bool
	arrival   time.Duration // its start, from the batch start
	started   bool
	attempts  []attemptRec
	stalls    []span
	lastDelta time.Duration
	tokens    int
	res       *pipeline.Result
}

// batch is one variant's requests. Request goroutines write records under
// mu; the lab reads snapshots for frames.
type batch struct {
	s  settings
	v  variant
	mu sync.Mutex
	t0 time.Time
	rs []record
}

// faults is the injected misbehaviour for the learner's fault choice.
func faults(s settings) pipeline.Faults {
	switch s.fault {
	case faultSlow:
		return pipeline.Faults{FirstTokenDelay: s.slowBy}
	case faultStall:
		return pipeline.Faults{StallAfter: stallAfter, StallFor: s.slowBy}
	case faultRefuse:
		return pipeline.Faults{Refuse: true}
	}
	return pipeline.Faults{}
}

// pipelineConfig is a lean support pipeline (the lesson's 80 ms guardrail,
// a 120 ms retrieval when there is a knowledge base, a 15 ms gateway hop)
// with the variant's timeouts and the learner's deadline and backup. No
// cache: every request must reach a model.
func pipelineConfig(s settings, v variant, session string, retrieval bool) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.Guard = pipeline.GuardConfig{Enabled: true, Latency: pipeline.Latency{Base: 80 * time.Millisecond}}
	cfg.Context = pipeline.ContextConfig{Parallel: true}
	if retrieval {
		cfg.Context.TopK = 3
		cfg.Context.RetrievalLatency = pipeline.Latency{Base: 120 * time.Millisecond}
	}
	cfg.Prompt = pipeline.PromptConfig{System: pipelinelab.SystemPrompt(session)}
	cfg.Gateway = pipeline.GatewayConfig{Tier: primary, FirstTokenTimeout: v.ftt, OverallTimeout: v.overall,
		Overhead: pipeline.Latency{Base: 15 * time.Millisecond}, ExactTokens: s.answer}
	if s.backup != "" {
		cfg.Gateway.Fallback = []string{s.backup}
	}
	cfg.Deadline = v.deadline
	return cfg
}

// pipelines builds the healthy pipeline and the one whose primary tier
// suffers the fault, both on run's tiers and knowledge base. Both share
// the pool's engines.
func pipelines(s settings, v variant, session string, run pipelinelab.Run) (healthy, faulty *pipeline.Pipeline, err error) {
	tiers := run.Tiers
	cfg := pipelineConfig(s, v, session, run.Retriever != nil)
	deps := run.Deps(pipeline.Deps{Tiers: tiers, Retriever: run.Retriever})
	if healthy, err = pipeline.New(cfg, deps); err != nil {
		return nil, nil, err
	}
	bad := append([]pipeline.Tier(nil), tiers...)
	for i := range bad {
		if bad[i].Name == primary {
			bad[i].Provider = &pipeline.FaultyProvider{Inner: bad[i].Provider, Faults: faults(s)}
		}
	}
	deps.Tiers = bad
	if faulty, err = pipeline.New(cfg, deps); err != nil {
		return nil, nil, err
	}
	return healthy, faulty, nil
}

// run starts every request of the batch, spaced by spacing, and returns
// when all have ended (each returns soon after ctx ends).
func (b *batch) run(ctx context.Context, healthy, faulty *pipeline.Pipeline, idPrefix string) error {
	b.mu.Lock()
	b.t0 = time.Now()
	b.rs = make([]record, b.s.requests)
	for i := range b.rs {
		b.rs[i] = record{slowed: b.s.slowed(i), arrival: time.Duration(i) * spacing}
	}
	b.mu.Unlock()

	var wg sync.WaitGroup
	errs := make([]error, b.s.requests)
	for i := range b.s.requests {
		p := healthy
		if b.s.slowed(i) {
			p = faulty
		}
		wg.Go(func() {
			if err := clock.Sleep(ctx, clock.Wall{}, time.Duration(i)*spacing); err != nil {
				return
			}
			b.mu.Lock()
			b.rs[i].arrival = time.Since(b.t0) // measured, not the nominal gap
			b.mu.Unlock()
			q := pipelinelab.Questions[i%len(pipelinelab.Questions)].Label
			req := pipeline.Request{ID: fmt.Sprintf("%s-%d", idPrefix, i), Customer: pipelinelab.Customer,
				Question: q, Seed: int64(i + 1)}
			res, err := p.Run(ctx, req, func(ev pipeline.Event) { b.observe(i, ev) })
			if err != nil {
				errs[i] = fmt.Errorf("request %d: %w", i, err)
				return
			}
			b.mu.Lock()
			b.rs[i].res = res
			b.mu.Unlock()
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// observe folds one pipeline event into request i's record.
func (b *batch) observe(i int, ev pipeline.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &b.rs[i]
	r.started = true
	switch ev.Kind {
	case pipeline.EventStageStart:
		if ev.Span.Stage == pipeline.StageAttempt {
			r.attempts = append(r.attempts, attemptRec{tier: ev.Span.Tier, start: ev.Span.Start})
		}
	case pipeline.EventStageEnd:
		if ev.Span.Stage == pipeline.StageAttempt && len(r.attempts) > 0 {
			a := &r.attempts[len(r.attempts)-1]
			a.end, a.ended = ev.Span.End, true
		}
	case pipeline.EventDelta:
		if len(r.attempts) > 0 {
			a := &r.attempts[len(r.attempts)-1]
			if !a.hasFirst {
				a.first, a.hasFirst = ev.At, true
			}
		}
		if r.tokens > 0 && ev.At-r.lastDelta >= stallGap {
			r.stalls = append(r.stalls, span{r.lastDelta, ev.At})
		}
		r.tokens += ev.Tokens
		r.lastDelta = ev.At
	}
}

// snapshot copies the records and the time since the batch started.
func (b *batch) snapshot() ([]record, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]record, len(b.rs))
	for i, r := range b.rs {
		r.attempts = append([]attemptRec(nil), r.attempts...)
		r.stalls = append([]span(nil), r.stalls...)
		out[i] = r
	}
	return out, time.Since(b.t0)
}
