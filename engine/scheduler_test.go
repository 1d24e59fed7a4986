package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// mixedRequests is a seeded workload with varied prompt and output lengths
// and Poisson arrivals at rate per second (0: all at once).
func mixedRequests(seed uint64, n int, rate float64) []Request {
	r := rand.New(rand.NewPCG(seed, 2))
	reqs := make([]Request, n)
	var t time.Duration
	for i := range reqs {
		if rate > 0 {
			t += time.Duration(r.ExpFloat64() / rate * float64(time.Second))
		}
		in, out := 16+r.IntN(2000), 1+r.IntN(300)
		reqs[i] = Request{ID: fmt.Sprintf("q%d", i), Arrival: t, PromptTokens: randomPrompt(r, in), MaxTokens: out, IgnoreEOS: true}
	}
	return reqs
}

// policyCheck returns an afterStep hook asserting the policy's own rules on
// top of the shared invariants.
func policyCheck(cfg Config, maxRunning *int) func(*Engine, *StepResult) error {
	runningAfter := 0
	seen := map[string]bool{}
	return func(e *Engine, r *StepResult) error {
		if err := checkInvariants(e, r); err != nil {
			return err
		}
		t := r.Trace
		*maxRunning = max(*maxRunning, t.Running)
		switch cfg.Policy {
		case Sequential:
			if len(t.Batch) > 1 {
				return fmt.Errorf("sequential ran %d requests in one step", len(t.Batch))
			}
		case Static:
			if len(t.Batch) > cfg.BatchSize {
				return fmt.Errorf("static batch of %d exceeds %d", len(t.Batch), cfg.BatchSize)
			}
			// A new request may only start once the previous batch is over.
			for _, b := range t.Batch {
				if !seen[b.ID] && runningAfter > 0 {
					return fmt.Errorf("static admitted %s into a running batch", b.ID)
				}
			}
		}
		for _, b := range t.Batch {
			seen[b.ID] = true
		}
		runningAfter = len(e.running)
		switch cfg.Policy {
		case Continuous:
			if tok := t.PrefillTokens + t.DecodeTokens; tok > cfg.MaxNumBatchedTokens {
				return fmt.Errorf("step computed %d tokens, budget %d", tok, cfg.MaxNumBatchedTokens)
			}
			if !cfg.ChunkedPrefill {
				for _, b := range t.Batch {
					s, ok := e.byID[b.ID]
					if b.Prefill > 0 && ok && s.numComputedTokens < s.numPromptTokens {
						return fmt.Errorf("%s prefill split without chunked prefill", b.ID)
					}
				}
			}
		}
		return nil
	}
}

func TestPolicies(t *testing.T) {
	small := DefaultConfig()
	small.NumGPUBlocks = 600 // 9,600 tokens: forces preemption under load
	tests := []struct {
		name   string
		mutate func(*Config)
		rate   float64
	}{
		{"sequential", func(c *Config) { c.Policy = Sequential }, 0},
		{"static/full-batches", func(c *Config) { c.Policy = Static; c.BatchSize = 8 }, 0},
		{"static/waits-to-fill", func(c *Config) { c.Policy = Static; c.BatchSize = 8; c.BatchWait = 20 * time.Millisecond }, 20},
		{"continuous/chunked", func(c *Config) { c.MaxNumBatchedTokens = 512 }, 50},
		{"continuous/unchunked", func(c *Config) { c.ChunkedPrefill = false; c.MaxNumBatchedTokens = 4096 }, 50},
		{"continuous/few-seats", func(c *Config) { c.MaxNumSeqs = 4 }, 0},
		{"continuous/no-prefix-cache", func(c *Config) { c.PrefixCaching = false }, 0},
		{"continuous/tiny-cache-preempts", func(c *Config) { *c = small }, 0},
		{"static/tiny-cache-preempts", func(c *Config) { *c = small; c.Policy = Static; c.BatchSize = 32 }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.NumGPUBlocks = 4000 // keeps the per-step invariant walk cheap
			tt.mutate(&cfg)
			reqs := mixedRequests(42, 60, tt.rate)
			maxRunning := 0
			res, err := Simulate(cfg, reqs, SimOptions{afterStep: policyCheck(cfg, &maxRunning)})
			if err != nil {
				t.Fatal(err)
			}
			// No starvation: everything finishes, with the tokens it asked for.
			for i, r := range res.Requests {
				if r.FinishReason != FinishLength || len(r.TokenTimes) != reqs[i].MaxTokens {
					t.Fatalf("%s: finish %q with %d/%d tokens", r.ID, r.FinishReason, len(r.TokenTimes), reqs[i].MaxTokens)
				}
				for j := 1; j < len(r.TokenTimes); j++ {
					if r.TokenTimes[j] <= r.TokenTimes[j-1] {
						t.Fatalf("%s: token %d not after token %d", r.ID, j, j-1)
					}
				}
			}
			switch cfg.Policy {
			case Sequential:
				if maxRunning != 1 {
					t.Errorf("sequential ran up to %d at once", maxRunning)
				}
			case Static:
				if maxRunning > cfg.BatchSize {
					t.Errorf("static ran %d > batch size %d", maxRunning, cfg.BatchSize)
				}
			default:
				if maxRunning > cfg.MaxNumSeqs {
					t.Errorf("continuous ran %d > max_num_seqs %d", maxRunning, cfg.MaxNumSeqs)
				}
			}
			if cfg.NumGPUBlocks == 600 && cfg.Policy == Continuous && res.Stats.Preemptions == 0 {
				t.Errorf("a 600-block cache under this load should preempt")
			}
		})
	}
}

// TestStaticWaitsForBatch: a lone request under the static policy waits
// BatchWait for company before it starts.
func TestStaticWaitsForBatch(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Policy, cfg.BatchSize, cfg.BatchWait = Static, 4, 30*time.Millisecond
	res, err := Simulate(cfg, fixedRequests(1, 1, 64, 4), SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Requests[0].FirstScheduled; got != cfg.BatchWait {
		t.Errorf("first scheduled at %v, want %v", got, cfg.BatchWait)
	}
}

// TestSimulateDeterministic: the same inputs give the same timeline.
func TestSimulateDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	a, err := Simulate(cfg, mixedRequests(9, 80, 30), SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Simulate(cfg, mixedRequests(9, 80, 30), SimOptions{})
	for i := range a.Requests {
		if a.Requests[i].End != b.Requests[i].End || a.Requests[i].FirstToken != b.Requests[i].FirstToken {
			t.Fatalf("request %d differs between identical runs", i)
		}
	}
}

// TestStopAndLength: generation ends with "stop" after the answer, or with
// "length" at max_tokens, emitting exactly the answer's tokens in order.
func TestStopAndLength(t *testing.T) {
	answer := []int{11, 22, 33, 44, 55}
	tests := []struct {
		maxTokens  int
		wantReason string
		wantTokens []int
	}{
		{0, FinishStop, answer},
		{10, FinishStop, answer},
		{3, FinishLength, answer[:3]},
	}
	for _, tt := range tests {
		e, err := New(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Add(Request{ID: "a", PromptTokens: []int{1, 2, 3}, OutputTokens: answer, MaxTokens: tt.maxTokens}); err != nil {
			t.Fatal(err)
		}
		var got []int
		var reason string
		for e.HasWork() {
			r := e.Step()
			for _, tok := range r.Tokens {
				got = append(got, tok.Token)
			}
			for _, f := range r.Finished {
				reason = f.FinishReason
			}
		}
		if reason != tt.wantReason || fmt.Sprint(got) != fmt.Sprint(tt.wantTokens) {
			t.Errorf("max_tokens %d: got %v %q, want %v %q", tt.maxTokens, got, reason, tt.wantTokens, tt.wantReason)
		}
	}
}

// TestAbortFreesBlocks: an aborted request gives back its blocks at the
// next step and reports "abort".
func TestAbortFreesBlocks(t *testing.T) {
	e, _ := New(DefaultConfig())
	reqs := fixedRequests(3, 2, 1000, 50)
	for _, r := range reqs {
		if err := e.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	e.Step()
	e.Step()
	before := e.blocks.numFree
	if !e.Abort("r0") {
		t.Fatal("abort did not find r0")
	}
	r := e.Step()
	if len(r.Finished) != 1 || r.Finished[0].FinishReason != FinishAbort {
		t.Fatalf("finished = %+v", r.Finished)
	}
	if err := checkInvariants(e, r); err != nil {
		t.Fatal(err)
	}
	if e.blocks.numFree <= before-1 {
		t.Errorf("free blocks %d after abort, %d before: nothing freed", e.blocks.numFree, before)
	}
	if e.Abort("r0") {
		t.Error("second abort of r0 found it")
	}
}

// TestValidation: bad requests fail with clear errors, never a panic.
func TestValidation(t *testing.T) {
	cfg := DefaultConfig()
	e, _ := New(cfg)
	long := make([]int, 131000)
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"empty id", Request{PromptTokens: []int{1}, MaxTokens: 1}, "id is empty"},
		{"empty prompt", Request{ID: "x", MaxTokens: 1, IgnoreEOS: true}, "prompt is empty"},
		{"negative max", Request{ID: "x", PromptTokens: []int{1}, MaxTokens: -1}, "max_tokens"},
		{"no output", Request{ID: "x", PromptTokens: []int{1}, MaxTokens: 5}, "no output"},
		{"context", Request{ID: "x", PromptTokens: long, MaxTokens: 500, IgnoreEOS: true},
			"This model's maximum context length is 131072 tokens. However, you requested 131500 tokens (131000 in the messages, 500 in the completion). Please reduce the length of the messages or completion."},
	}
	for _, tt := range tests {
		err := e.Add(tt.req)
		if err == nil || !contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func contains(s, sub string) bool { return len(sub) == 0 || indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestFCFS: identical requests start, and get their first token, in the
// order they arrived, under every policy.
func TestFCFS(t *testing.T) {
	for _, p := range Policies() {
		cfg := DefaultConfig()
		cfg.Policy, cfg.BatchSize, cfg.MaxNumSeqs, cfg.MaxNumBatchedTokens = p, 4, 8, 1024
		reqs := fixedRequests(11, 24, 300, 20)
		for i := range reqs {
			reqs[i].Arrival = time.Duration(i) * time.Millisecond
		}
		res, err := Simulate(cfg, reqs, SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(res.Requests); i++ {
			a, b := res.Requests[i-1], res.Requests[i]
			if b.FirstScheduled < a.FirstScheduled || b.FirstToken < a.FirstToken {
				t.Errorf("%s: %s (arrived later) started or answered before %s", p, b.ID, a.ID)
			}
		}
	}
}
