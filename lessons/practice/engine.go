package practice

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// deployment is a model on a GPU type; the engine config is built from
// the engine's own profiles so every number comes from them.
type deployment struct {
	model, gpu string
	tp         int
	precision  engine.Precision
}

// deployments are the combinations drills draw from; each fits in memory
// (TestDeploymentsValid checks).
var deployments = []deployment{
	{"llama-3.1-8b", "h100-sxm", 1, engine.BF16},
	{"llama-3.1-8b", "a100-80g", 1, engine.BF16},
	{"llama-3.1-8b", "l40s", 1, engine.BF16},
	{"llama-3.1-8b", "h200", 1, engine.FP8},
	{"llama-3.2-3b", "l4", 1, engine.BF16},
	{"llama-3.2-3b", "h100-sxm", 1, engine.BF16},
	{"llama-3.2-1b", "a10g", 1, engine.BF16},
	{"qwen2.5-7b", "h100-sxm", 1, engine.BF16},
	{"mistral-7b", "a100-80g", 1, engine.BF16},
	{"llama-3.1-70b", "h100-sxm", 4, engine.BF16},
	{"llama-3.1-70b", "h200", 2, engine.FP8},
}

// config is the engine's default serving config for the deployment.
func (d deployment) config() (engine.Config, error) {
	cfg := engine.DefaultConfig()
	m, err := engine.LookupModel(d.model)
	if err != nil {
		return cfg, err
	}
	h, err := engine.LookupHardware(d.gpu)
	if err != nil {
		return cfg, err
	}
	cfg.Model, cfg.Hardware, cfg.TP, cfg.Precision = m, h, d.tp, d.precision
	// Drills model one user's request at a time unless they say otherwise;
	// a cached prefix would hide the prefill they ask about.
	cfg.PrefixCaching = false
	return cfg, cfg.Validate()
}

func (d deployment) String() string {
	s := fmt.Sprintf("%s (%s) on %s", d.model, d.precision, d.gpu)
	if d.tp > 1 {
		s = fmt.Sprintf("%s (%s) on %d× %s", d.model, d.precision, d.tp, d.gpu)
	}
	return s
}

// pick draws one element of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// between draws a whole number in [lo, hi] rounded to a multiple of step.
func between(r *rand.Rand, lo, hi, step int) int {
	n := (hi - lo) / step
	return lo + r.IntN(n+1)*step
}

// request builds a request of prompt tokens (distinct per id, so no two
// requests share a prefix) that writes exactly output tokens.
func request(id, offset, prompt, output int) engine.Request {
	toks := make([]int, prompt)
	for i := range toks {
		toks[i] = 1 + (offset*7919+i)%100000
	}
	return engine.Request{ID: fmt.Sprint("r", id), PromptTokens: toks, MaxTokens: output, IgnoreEOS: true}
}

// simulateOne runs one request alone on the engine's virtual clock.
func simulateOne(cfg engine.Config, prompt, output int) (engine.RequestResult, error) {
	res, err := engine.Simulate(cfg, []engine.Request{request(0, 0, prompt, output)}, engine.SimOptions{})
	if err != nil {
		return engine.RequestResult{}, fmt.Errorf("simulate: %w", err)
	}
	return res.Requests[0], nil
}

// simulateBatch sends n identical-shaped requests at once.
func simulateBatch(cfg engine.Config, n, prompt, output int) (*engine.SimResult, error) {
	reqs := make([]engine.Request, n)
	for i := range reqs {
		reqs[i] = request(i, i+1, prompt, output)
	}
	res, err := engine.Simulate(cfg, reqs, engine.SimOptions{})
	if err != nil {
		return nil, fmt.Errorf("simulate: %w", err)
	}
	return res, nil
}

// tpot is vLLM's time per output token: (E2E − TTFT) / (tokens − 1).
func tpot(r engine.RequestResult) time.Duration {
	n := len(r.TokenTimes)
	if n < 2 {
		return 0
	}
	return (r.E2E() - r.TTFT()) / time.Duration(n-1)
}

// meanTPOT averages TPOT over a run's requests.
func meanTPOT(res *engine.SimResult) time.Duration {
	var sum time.Duration
	for _, r := range res.Requests {
		sum += tpot(r)
	}
	return sum / time.Duration(len(res.Requests))
}

// decodeStep is the roofline's time for one decode step of batch
// sequences each holding context tokens in KV cache.
func decodeStep(cfg engine.Config, batch, context int) (time.Duration, error) {
	rl, err := engine.NewRoofline(cfg)
	if err != nil {
		return 0, err
	}
	return rl.StepTime(engine.BatchShape{NumSeqs: batch, DecodeTokens: batch, SampledTokens: batch,
		KVReadTokens: int64(batch * context), AttnPairs: float64(batch * (context + 1))}), nil
}

// prefillStep is the roofline's time for prefilling a whole prompt in one
// step (the arithmetic the worked solutions show).
func prefillStep(cfg engine.Config, prompt int) (time.Duration, error) {
	rl, err := engine.NewRoofline(cfg)
	if err != nil {
		return 0, err
	}
	p := float64(prompt)
	return rl.StepTime(engine.BatchShape{NumSeqs: 1, PrefillTokens: prompt, SampledTokens: 1,
		AttnPairs: p * (p + 1) / 2}), nil
}

// secs is a duration in seconds.
func secs(d time.Duration) float64 { return d.Seconds() }

// singleStreamPrompt and singleStreamOutput are the request the
// single-stream drills time: a short chat turn alone on the GPU.
const singleStreamPrompt, singleStreamOutput = 500, 64

// singleStreamTPOT is the time per output token of one request alone on
// s's deployment, the answer of every single-stream decode drill.
func (s setup) singleStreamTPOT() (time.Duration, error) {
	res, err := simulateOne(s.cfg, singleStreamPrompt, singleStreamOutput)
	if err != nil {
		return 0, err
	}
	return tpot(res), nil
}
