package fidelity

import (
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/benchmark"
)

// errStalled guards against a bug turning the served replay into an
// endless loop.
var errStalled = errors.New("served replay: nothing left to do but requests unfinished")

// servedRun is one served benchmark on the virtual clock: a closed-loop
// client (vllm bench serve with --max-concurrency, every request sent at
// once without it), the API server's event loop and the engine core, each
// advancing on the same clock. The engine core steps on its own; the event
// loop takes in new requests and streams the tokens each step emits, one
// job at a time; the client sends its next request when the last chunk of
// an earlier one reaches it.
type servedRun struct {
	e      *engine.Engine
	loop   eventLoop
	reqs   []benchmark.Request
	outs   []benchmark.Output
	limit  int             // requests in flight at most
	sent   int             // requests the client has sent
	done   int             // requests whose last chunk reached the client
	last   []time.Duration // when each request's latest chunk arrived
	want   []int           // tokens each request will stream
	inbox  []handoff       // requests taken in, waiting to reach the engine core
	serial map[uint64]int
}

// handoff is a request the event loop has taken in, due at the engine
// core at time at.
type handoff struct {
	at  time.Duration
	req int
}

// serve replays reqs through fe and the engine cfg builds, and returns
// what the client measured and when its last chunk arrived.
func serve(cfg engine.Config, fe FrontEnd, reqs []benchmark.Request, maxConcurrency int) ([]benchmark.Output, time.Duration, error) {
	e, err := engine.New(cfg)
	if err != nil {
		return nil, 0, err
	}
	s := &servedRun{e: e, loop: eventLoop{fe: fe}, reqs: reqs, outs: make([]benchmark.Output, len(reqs)),
		limit: len(reqs), last: make([]time.Duration, len(reqs)), want: make([]int, len(reqs)), serial: map[uint64]int{}}
	for k, r := range reqs {
		s.want[k] = max(r.OutputLen, 1)
	}
	if maxConcurrency > 0 {
		s.limit = min(s.limit, maxConcurrency)
	}
	for s.sent < s.limit {
		s.send(0)
	}
	for s.done < len(reqs) {
		if err := s.advance(); err != nil {
			return nil, 0, fmt.Errorf("served replay: %w", err)
		}
	}
	var end time.Duration
	for _, t := range s.last {
		end = max(end, t)
	}
	return s.outs, end, nil
}

// send has the client send the next request at time t.
func (s *servedRun) send(t time.Duration) {
	k := s.sent
	s.sent++
	r := &s.reqs[k]
	s.outs[k] = benchmark.Output{PromptLen: r.PromptLen, Start: t, ITL: make([]time.Duration, 0, max(r.OutputLen-1, 0))}
	s.loop.add(t+s.loop.fe.Latency, k, -1)
}

// advance serves the event loop up to the engine's clock, hands the engine
// the requests that have reached it, and runs one step; with nothing to
// step it moves the clock to the next thing due.
func (s *servedRun) advance() error {
	now := s.e.Now()
	s.loop.runUntil(now, s.finished)
	if s.done == len(s.reqs) {
		return nil
	}
	if err := s.handOver(now); err != nil {
		return err
	}
	if at, ok := s.e.NextStepAt(); ok && at <= now {
		step := s.e.Step()
		for _, t := range step.Tokens {
			s.loop.add(t.Time, s.serial[t.Serial], t.Index)
		}
		for _, f := range step.Finished {
			s.ended(s.serial[f.Serial], f.Usage.CompletionTokens, now)
		}
		if len(step.Trace.Batch) == 0 && len(step.Finished) == 0 {
			return errStalled
		}
		return nil
	}
	wake, ok := s.loop.next()
	for _, h := range s.inbox {
		if !ok || h.at < wake {
			wake, ok = h.at, true
		}
	}
	if at, can := s.e.NextStepAt(); can && (!ok || at < wake) {
		wake, ok = at, true
	}
	if !ok || wake <= now {
		return errStalled
	}
	s.e.AdvanceTo(wake)
	return nil
}

// finished records a job the event loop completed at time at: a request
// taken in goes on to the engine core, a token reaches its client.
func (s *servedRun) finished(j job, at time.Duration) {
	if j.token < 0 {
		s.inbox = append(s.inbox, handoff{at: at, req: j.req})
		return
	}
	o := &s.outs[j.req]
	switch {
	case j.token == 0:
		o.TTFT = at - o.Start
	default:
		o.ITL = append(o.ITL, at-s.last[j.req])
	}
	s.last[j.req] = at
	o.OutputTokens = j.token + 1
	if o.OutputTokens < s.want[j.req] {
		return
	}
	o.Success, o.Latency = true, at-o.Start
	s.complete(at)
}

// ended records how many tokens the engine gave request k in all. One that
// ended without a token (aborted) has nothing left to stream: the client
// counts it failed at once.
func (s *servedRun) ended(k, tokens int, at time.Duration) {
	s.want[k] = tokens
	if tokens == 0 {
		s.outs[k].Error = "request " + s.reqs[k].ID + " ended without output"
		s.complete(at)
	}
}

// complete frees the request's concurrency slot at time at; the client
// sends its next request into it.
func (s *servedRun) complete(at time.Duration) {
	s.done++
	if s.sent < len(s.reqs) {
		s.send(at)
	}
}

// handOver adds to the engine, in the order they were taken in, the
// requests that have reached it by now.
func (s *servedRun) handOver(now time.Duration) error {
	n := 0
	for _, h := range s.inbox {
		if h.at > now {
			s.inbox[n] = h
			n++
			continue
		}
		r := &s.reqs[h.req]
		s.serial[s.e.Serial()] = h.req
		err := s.e.Add(engine.Request{ID: r.ID, Arrival: h.at, PromptTokens: r.PromptTokens, MaxTokens: max(r.OutputLen, 1), IgnoreEOS: true})
		if err != nil {
			return err
		}
	}
	s.inbox = s.inbox[:n]
	return nil
}
