package batching

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// workload is the requests of one run, with their arrivals as offsets from
// the run's start, and labels for the timeline rows.
type workload struct {
	reqs   []engine.Request
	labels []string
}

// arrivalPlan shapes when a workload's requests arrive.
type arrivalPlan struct {
	n     int
	burst bool    // all at time zero
	rate  float64 // req/s, for Poisson arrivals
	seed  uint64
}

// buildWorkload makes plan.n requests with prompts of s.prompt tokens and
// answers spread evenly between s.outputRange's shortest and longest. Each
// request generates exactly its answer length (ignore_eos, as vllm bench
// serve runs). Prompts differ from their first token on, and salt makes
// them differ between runs, so runs on a shared engine never reuse each
// other's cached blocks. Arrivals and lengths depend only on plan.seed, so
// the same knobs give the same workload every time (policies compare on
// equal terms).
func buildWorkload(s settings, plan arrivalPlan, prefix string, salt uint64) workload {
	rng := rand.New(rand.NewPCG(plan.seed, 0x6261746368))
	lo, hi := s.outputRange()
	w := workload{reqs: make([]engine.Request, plan.n), labels: make([]string, plan.n)}
	var at time.Duration
	for i := range plan.n {
		if !plan.burst && i > 0 {
			at += time.Duration(rng.ExpFloat64() / plan.rate * float64(time.Second))
		}
		out := lo + rng.IntN(hi-lo+1)
		w.reqs[i] = engine.Request{
			ID:           fmt.Sprintf("%s-%d", prefix, i+1),
			Arrival:      at,
			PromptTokens: promptTokens(s.prompt, salt, i),
			MaxTokens:    out,
			IgnoreEOS:    true,
		}
		w.labels[i] = fmt.Sprintf("#%d", i+1)
	}
	return w
}

// promptTokens is a prompt of n token ids whose first block is unique to
// (salt, i); the rest is filler. Only distinctness matters to the engine:
// it models cost from lengths and uses ids for prefix-cache lookups.
func promptTokens(n int, salt uint64, i int) []int {
	p := make([]int, n)
	h := salt*0x9e3779b97f4a7c15 + uint64(i+1)*0xbf58476d1ce4e5b9
	for j := range p {
		if j < engine.BlockSize {
			h ^= h >> 29
			h *= 0x94d049bb133111eb
			p[j] = int(h%100000) + 1
		} else {
			p[j] = 1000 + j%5000
		}
	}
	return p
}

// addLongPrompt appends one request with a long prompt that arrives once
// every other request is generating: a little after the last of them got
// its first token in a virtual-clock run of the same workload on cfg. That
// run only places the arrival; no figure the learner sees comes from it.
func addLongPrompt(w workload, cfg engine.Config, s settings, salt uint64, prefix string) (workload, error) {
	res, err := engine.Simulate(cfg, cloneReqs(w.reqs), engine.SimOptions{})
	if err != nil {
		return w, fmt.Errorf("place long prompt: %w", err)
	}
	var lastFirst time.Duration
	for _, r := range res.Requests {
		lastFirst = max(lastFirst, r.FirstToken)
	}
	lo, hi := s.outputRange()
	w.reqs = append(w.reqs, engine.Request{
		ID:           prefix + "-long",
		Arrival:      lastFirst + 20*time.Millisecond,
		PromptTokens: promptTokens(s.longPrompt, salt, len(w.reqs)),
		MaxTokens:    (lo + hi) / 2,
		IgnoreEOS:    true,
	})
	w.labels = append(w.labels, "long")
	return w, nil
}

// cloneReqs copies the request headers (Simulate may rewrite arrivals);
// token slices are shared, which the engine allows since it never writes
// them.
func cloneReqs(r []engine.Request) []engine.Request { return slices.Clone(r) }
