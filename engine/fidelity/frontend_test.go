package fidelity

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/benchmark"
)

// TestEventLoopServesJobsInTurn checks the API server's loop on its own: it
// serves one job at a time in the order the jobs fell due (ties in the
// order they were made), a request taking PerRequest and a token PerToken,
// and waits idle for a job that is not yet due.
func TestEventLoopServesJobsInTurn(t *testing.T) {
	ms := time.Millisecond
	type add struct {
		ready      time.Duration
		req, token int
	}
	for _, c := range []struct {
		name  string
		adds  []add
		until time.Duration
		want  []string // "req/token@finish"
	}{
		{"one request then its token", []add{{0, 0, -1}, {0, 0, 0}}, 10 * ms,
			[]string{"0/-1@2ms", "0/0@3ms"}},
		{"a later job waits behind an earlier one", []add{{ms / 2, 1, -1}, {0, 2, 0}, {ms / 2, 3, 0}}, 10 * ms,
			[]string{"2/0@1ms", "1/-1@3ms", "3/0@4ms"}},
		{"idle until the next job falls due", []add{{0, 0, 0}, {5 * ms, 1, 0}}, 10 * ms,
			[]string{"0/0@1ms", "1/0@6ms"}},
		{"a job due after the horizon waits", []add{{0, 0, 0}, {5 * ms, 1, 0}}, 4 * ms,
			[]string{"0/0@1ms"}},
	} {
		l := eventLoop{fe: FrontEnd{PerRequest: 2 * ms, PerToken: ms}}
		for _, a := range c.adds {
			l.add(a.ready, a.req, a.token)
		}
		var got []string
		l.runUntil(c.until, func(j job, at time.Duration) { got = append(got, fmt.Sprintf("%d/%d@%v", j.req, j.token, at)) })
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: served %v, want %v", c.name, got, c.want)
		}
	}
}

// l4Run is the L4 sweep's deployment with a small closed-loop workload.
func l4Run(prompts, concurrency int) Run {
	return Run{ID: "l4", Hardware: "l4", Precision: "bf16", TP: 1, ChunkedPrefill: true,
		ModelConfig: []byte(`{"num_hidden_layers":24,"hidden_size":896,"num_attention_heads":14,"num_key_value_heads":2,"intermediate_size":4864,"vocab_size":151936,"tie_word_embeddings":true,"max_position_embeddings":32768}`),
		MaxNumSeqs:  256, MaxNumBatchedTokens: 2048,
		InputLen: 256, OutputLen: 32, NumPrompts: prompts, MaxConcurrency: concurrency, Served: true}
}

// serveRun replays run through fe and returns what the client measured.
func serveRun(t *testing.T, run Run, fe FrontEnd) []benchmark.Output {
	t.Helper()
	cfg, err := run.Config()
	if err != nil {
		t.Fatal(err)
	}
	reqs, _ := run.requests()
	outs, _, err := serve(cfg, fe, reqs, run.MaxConcurrency)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

// TestServeWithoutFrontEndIsTheEngine checks that a front end that costs
// nothing leaves the engine's own closed-loop simulation exactly as it was:
// the served replay adds the API server and nothing else.
func TestServeWithoutFrontEndIsTheEngine(t *testing.T) {
	for _, c := range []struct{ prompts, concurrency int }{{6, 0}, {9, 2}, {8, 8}} {
		run := l4Run(c.prompts, c.concurrency)
		served := serveRun(t, run, FrontEnd{})
		cfg, _ := run.Config()
		reqs, _ := run.requests()
		engineOnly, _, err := benchmark.RunSim(cfg, reqs, run.MaxConcurrency)
		if err != nil {
			t.Fatal(err)
		}
		for k := range served {
			s, e := served[k], engineOnly[k]
			if s.Start != e.Start || s.TTFT != e.TTFT || s.Latency != e.Latency || !slices.Equal(s.ITL, e.ITL) || !s.Success {
				t.Errorf("%d prompts at concurrency %d, request %d: served start %v ttft %v e2e %v, engine alone %v %v %v",
					c.prompts, c.concurrency, k, s.Start, s.TTFT, s.Latency, e.Start, e.TTFT, e.Latency)
			}
		}
	}
}

// TestFirstTokensQueueBehindEachOther checks that requests sent together
// are taken in one after another and that first tokens emitted by the same
// step reach their clients one streaming cost apart, in batch order.
func TestFirstTokensQueueBehindEachOther(t *testing.T) {
	perToken := 300 * time.Microsecond
	outs := serveRun(t, l4Run(4, 0), FrontEnd{PerToken: perToken})
	for k := 1; k < len(outs); k++ {
		if d := outs[k].TTFT - outs[k-1].TTFT; d != perToken {
			t.Errorf("request %d's first token came %v after request %d's, want %v", k, d, k-1, perToken)
		}
	}
	perRequest := 3 * time.Millisecond
	alone := serveRun(t, l4Run(1, 0), FrontEnd{PerRequest: perRequest})[0].TTFT
	together := serveRun(t, l4Run(2, 0), FrontEnd{PerRequest: perRequest})
	if got := together[1].TTFT - alone; got < perRequest {
		t.Errorf("the second of two requests sent together: first token %v later than a lone one's, want at least the %v it waits to be taken in", got, perRequest)
	}
}

// TestServeKeepsTheConcurrencyCap checks the closed loop: never more than
// the cap in flight, and each request after the first wave is sent the
// moment an earlier one's last chunk arrives.
func TestServeKeepsTheConcurrencyCap(t *testing.T) {
	const cap = 3
	outs := serveRun(t, l4Run(10, cap), VLLMFrontEnd())
	ends := map[time.Duration]int{}
	for _, o := range outs {
		ends[o.Start+o.Latency]++
	}
	for k, o := range outs {
		inFlight := 0
		for _, p := range outs {
			if p.Start <= o.Start && o.Start < p.Start+p.Latency {
				inFlight++
			}
		}
		if inFlight > cap {
			t.Errorf("request %d sent with %d in flight, cap %d", k, inFlight, cap)
		}
		if k >= cap && ends[o.Start] == 0 {
			t.Errorf("request %d sent at %v, when no earlier request ended", k, o.Start)
		}
	}
}

// TestSaturatedLoopSetsThePace checks the effect the model exists for: once
// the streams in flight need more of the loop than a GPU step lasts, each
// stream's tokens arrive one round of the loop apart, and first tokens of
// new requests wait far longer than on an idle loop.
func TestSaturatedLoopSetsThePace(t *testing.T) {
	const streams = 4
	perToken := 5 * time.Millisecond // 4 × 5 ms: well beyond a small model's step
	run := l4Run(12, streams)
	idle := serveRun(t, run, FrontEnd{})
	busy := serveRun(t, run, FrontEnd{PerToken: perToken})
	var gaps []time.Duration
	for _, o := range busy[streams:] {
		gaps = append(gaps, o.ITL...)
	}
	slices.Sort(gaps)
	if med := gaps[len(gaps)/2]; med != streams*perToken {
		t.Errorf("median gap between tokens with a saturated loop: %v, want one round of %d streams, %v", med, streams, streams*perToken)
	}
	if b, i := busy[len(busy)-1].TTFT, idle[len(idle)-1].TTFT; b < i+streams*perToken {
		t.Errorf("last request's first token: %v on a saturated loop, %v on an idle one; want at least a round longer", b, i)
	}
}

// TestServedNotesHold keeps the set's notes on served runs true: the
// figures they quote for the L4 sweep and Lambda's first-token times come
// from the replay, so a change that moves them must rewrite the notes.
func TestServedNotesHold(t *testing.T) {
	rep := evaluateShipped(t)
	row := func(id, metric string) Row {
		for _, r := range rep.Rows {
			if r.Run.ID == id && r.Metric == metric {
				return r
			}
		}
		t.Fatalf("no figure %s %s", id, metric)
		return Row{}
	}
	for _, c := range []struct {
		name     string
		got      float64
		min, max float64
	}{
		{"L4 at 32 streams, gap between tokens (note: 7.2 ms)", row("wmx-qwen0.5b-l4-c32", "median_itl_ms").Modelled, 7.15, 7.25},
		{"L4 at 32 streams, first token (note: about 90 ms)", row("wmx-qwen0.5b-l4-c32", "median_ttft_ms").Modelled, 85, 95},
		{"L4 at 4 streams, first token short by (note: 25 to 42%)", -row("wmx-qwen0.5b-l4-c4", "median_ttft_ms").Error(), 0.25, 0.42},
		{"L4 at 8 streams, first token short by (note: 25 to 42%)", -row("wmx-qwen0.5b-l4-c8", "median_ttft_ms").Error(), 0.25, 0.42},
		{"L4 at 16 streams, first token short by (note: 25 to 42%)", -row("wmx-qwen0.5b-l4-c16", "median_ttft_ms").Error(), 0.25, 0.42},
		{"Lambda 1×H100 Mistral first token (note: within 11%)", row("lambda-mistral7b-h100", "median_ttft_ms").Factor(), 1, 1.11},
		{"Lambda 1×H100 Llama 3 first token (note: within 11%)", row("lambda-llama3-8b-h100", "median_ttft_ms").Factor(), 1, 1.11},
	} {
		if !(c.got >= c.min && c.got <= c.max) {
			t.Errorf("%s: %.4f, want %.4f..%.4f", c.name, c.got, c.min, c.max)
		}
	}
	// The FP8 runs and the 8-GPU BF16 run: 19 to 45% short, says the note.
	for _, r := range rep.Rows {
		id := r.Run.ID
		if r.Metric != "median_ttft_ms" || !strings.HasPrefix(id, "lambda-") || r.HeldOut() ||
			!(strings.Contains(id, "fp8") || strings.Contains(id, "8xh100")) {
			continue
		}
		if short := -r.Error(); short < 0.185 || short > 0.45 {
			t.Errorf("%s first token short by %.1f%%, note says 19 to 45%%", id, 100*short)
		}
	}
	if FrontendPerRequest != 250*time.Microsecond || FrontendPerToken != 225*time.Microsecond || FrontendOverhead != 20*time.Millisecond {
		t.Errorf("the L4 note quotes the front end's costs (0.25 ms, 225 µs, 20 ms); now %v, %v, %v",
			FrontendPerRequest, FrontendPerToken, FrontendOverhead)
	}
}
