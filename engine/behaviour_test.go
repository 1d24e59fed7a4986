package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// These are the "done when" checks for llama-3.1-8b on h100-sxm,
// all on the virtual clock.

func TestTTFTGrowsWithInputLength(t *testing.T) {
	prev := time.Duration(0)
	for _, in := range []int{128, 512, 2048, 8192, 32768} {
		res, err := Simulate(DefaultConfig(), fixedRequests(1, 1, in, 8), SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ttft := res.Requests[0].TTFT()
		t.Logf("input %5d tokens: TTFT %v", in, ttft)
		if ttft <= prev {
			t.Errorf("TTFT %v at %d tokens is not above %v", ttft, in, prev)
		}
		prev = ttft
	}
}

func TestBatchingPolicyThroughput(t *testing.T) {
	// 256 chat-like requests from 32 concurrent clients; output lengths
	// vary, which is what static batching handles badly.
	r := rand.New(rand.NewPCG(5, 5))
	reqs := make([]Request, 256)
	for i := range reqs {
		reqs[i] = Request{ID: fmt.Sprint(i), PromptTokens: randomPrompt(r, 200+r.IntN(800)), MaxTokens: 16 + r.IntN(480), IgnoreEOS: true}
	}
	throughput := map[Policy]float64{}
	for _, p := range Policies() {
		cfg := DefaultConfig()
		cfg.Policy, cfg.BatchSize, cfg.BatchWait = p, 32, 50*time.Millisecond
		res, err := Simulate(cfg, reqs, SimOptions{MaxConcurrency: 32})
		if err != nil {
			t.Fatal(err)
		}
		m := summarize(res)
		throughput[p] = m.outputThroughput
		t.Logf("%-10s output %7.0f tok/s  median TTFT %v  median TPOT %v", p, m.outputThroughput, m.medianTTFT, m.medianTPOT)
	}
	if !(throughput[Continuous] > throughput[Static] && throughput[Static] > throughput[Sequential]) {
		t.Errorf("want continuous > static > sequential, got %v", throughput)
	}
}

func TestChunkedPrefillLowersITL(t *testing.T) {
	// 32 short chats decode steadily while 8k-token prompts arrive every
	// 300 ms: unchunked, each long prefill stalls every decode for a whole
	// step; chunked, it is spread over steps of 1024 tokens.
	r := rand.New(rand.NewPCG(8, 8))
	var reqs []Request
	for i := range 32 {
		reqs = append(reqs, Request{ID: fmt.Sprint("chat", i), PromptTokens: randomPrompt(r, 100), MaxTokens: 600, IgnoreEOS: true})
	}
	for i := range 8 {
		reqs = append(reqs, Request{ID: fmt.Sprint("doc", i), Arrival: time.Duration(i+1) * 300 * time.Millisecond,
			PromptTokens: randomPrompt(r, 8000), MaxTokens: 16, IgnoreEOS: true})
	}
	p99 := map[bool]time.Duration{}
	for _, chunked := range []bool{false, true} {
		cfg := DefaultConfig()
		cfg.ChunkedPrefill = chunked
		cfg.MaxNumBatchedTokens = 1024
		if !chunked {
			cfg.MaxNumBatchedTokens = 16384 // vLLM needs room for a whole prompt
		}
		res, err := Simulate(cfg, reqs, SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res.Requests = res.Requests[:32] // the chats' ITL
		m := summarize(res)
		p99[chunked] = m.p99ITL
		t.Logf("chunked=%v: chat ITL median %v p99 %v", chunked, m.medianITL, m.p99ITL)
	}
	if p99[true] >= p99[false] {
		t.Errorf("chunked prefill p99 ITL %v not below unchunked %v", p99[true], p99[false])
	}
}

func TestPrefixCachingLowersTTFT(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	system := randomPrompt(r, 2048)
	reqs := make([]Request, 40)
	for i := range reqs {
		prompt := append(append([]int(nil), system...), randomPrompt(r, 64)...)
		reqs[i] = Request{ID: fmt.Sprint(i), Arrival: time.Duration(i) * 100 * time.Millisecond, PromptTokens: prompt, MaxTokens: 32, IgnoreEOS: true}
	}
	ttft := map[bool]time.Duration{}
	for _, cache := range []bool{false, true} {
		cfg := DefaultConfig()
		cfg.PrefixCaching = cache
		res, err := Simulate(cfg, reqs, SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ttft[cache] = summarize(res).medianTTFT
		cached := 0
		for _, rr := range res.Requests {
			cached += rr.Usage.CachedTokens
		}
		t.Logf("prefix caching=%v: median TTFT %v, cached prompt tokens %d", cache, ttft[cache], cached)
		if cache && cached < 39*2048 {
			t.Errorf("only %d prompt tokens came from the cache", cached)
		}
	}
	if ttft[true] >= ttft[false] {
		t.Errorf("prefix caching TTFT %v not below %v", ttft[true], ttft[false])
	}
}
