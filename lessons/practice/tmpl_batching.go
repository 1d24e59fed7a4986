package practice

import (
	"fmt"
	"math/rand/v2"

	"github.com/latencylab/latencylab/labs"
)

var batchingTemplates = []Template{
	{ID: "kv-per-token", Lesson: "batching", Title: "KV cache per token", Unit: Bytes,
		Lab: "batching", Preset: "Static vs continuous: burst of 32",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			m := s.cfg.Model
			return Problem{
				Question: fmt.Sprintf("How many bytes of KV cache does one token take in %s (all layers, 16-bit cache)?", m.Name),
				Given:    given("Model", m.Name, "Layers", fmt.Sprint(m.NumLayers), "KV heads", fmt.Sprint(m.NumKVHeads), "Head size", fmt.Sprint(m.HeadDim)),
				Answer:   float64(s.fp.KVBytesPerToken),
				env:      env{cfg: s.cfg},
				Steps: []Step{stepf("K and V, every layer", "2 × %d layers × %d KV heads × %d × 2 bytes = %s",
					m.NumLayers, m.NumKVHeads, m.HeadDim, fmtBytes(float64(s.fp.KVBytesPerToken)))},
			}, nil
		}},
	{ID: "kv-capacity", Lesson: "batching", Title: "Tokens the KV cache holds", Unit: Tokens,
		Lab: "batching", Preset: "Continuous batching under Poisson load",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("The server runs %s with 90%% of GPU memory allowed. How many tokens of KV cache fit after the weights and activations?", s.d),
				Given:    given("Deployment", s.d.String(), "GPU memory", fmtBytes(s.cfg.Hardware.MemoryGiB*(1<<30)), "Memory allowed", "90%"),
				Answer:   float64(s.fp.KVTokens),
				env:      env{cfg: s.cfg},
				Steps: []Step{
					stepf("Free for the cache (per GPU)", "%s × 0.9 − weights %s − activation reserve %s = %s",
						fmtBytes(s.cfg.Hardware.MemoryGiB*(1<<30)), fmtBytes(float64(s.fp.PerGPUWeightBytes)), fmtBytes(float64(s.fp.ActivationReserveBytes)), fmtBytes(float64(s.fp.KVCacheBytes))),
					stepf("Per token (per GPU)", "%s ÷ %s = %s", fmtBytes(float64(s.fp.KVBytesPerToken)), labs.Count(s.cfg.TP, "GPU"), fmtBytes(float64(s.fp.KVBytesPerToken)/float64(s.cfg.TP))),
					stepf("Tokens", "%s ÷ %s, in blocks of 16 = %s tokens", fmtBytes(float64(s.fp.KVCacheBytes)), fmtBytes(float64(s.fp.KVBytesPerToken)/float64(s.cfg.TP)), fmtInt(s.fp.KVTokens)),
				},
			}, nil
		}},
	{ID: "kv-concurrency", Lesson: "batching", Title: "Conversations that fit at once", Unit: Requests,
		Lab: "batching", Preset: "Continuous batching under Poisson load",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			prompt, out := between(r, 1000, 8000, 500), between(r, 200, 1000, 100)
			n := s.fp.KVTokens / (prompt + out)
			return Problem{
				Question: fmt.Sprintf("Each request on %s holds a %s-token prompt and a %s-token answer in cache. How many can run at once before the cache is full?", s.d, fmtInt(prompt), fmtInt(out)),
				Given:    given("Deployment", s.d.String(), "Per request", fmt.Sprintf("%s + %s tokens", fmtInt(prompt), fmtInt(out))),
				Answer:   float64(n),
				env:      env{cfg: s.cfg, prompt: prompt, output: out},
				Steps: []Step{
					stepf("Cache capacity (engine footprint)", "%s tokens", fmtInt(s.fp.KVTokens)),
					stepf("Requests", "%s ÷ %s = %s requests", fmtInt(s.fp.KVTokens), fmtInt(prompt+out), fmtInt(n)),
				},
			}, nil
		}},
	{ID: "batch-tpot", Lesson: "batching", Title: "Time per token in a batch", Unit: Duration,
		Lab: "batching", Preset: "Static vs continuous: burst of 32",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			b := pick(r, 8, 16, 32, 48, 64)
			res, err := simulateBatch(s.cfg, b, 500, 64)
			if err != nil {
				return Problem{}, err
			}
			t := meanTPOT(res)
			one, err := decodeStep(s.cfg, 1, 530)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("%d users send 500-token prompts to %s at the same moment and each gets 64 tokens back. What is the average time per output token?", b, s.d),
				Given:    given("Deployment", s.d.String(), "Batch", fmt.Sprintf("%d requests", b), "Prompt / answer", "500 / 64 tokens"),
				Answer:   secs(t),
				env:      env{cfg: s.cfg, batch: b, prompt: 500, output: 64},
				Steps: []Step{
					s.weightsStep(),
					stepf("One decode step alone (roofline)", "%s", fmtDur(one)),
					stepf("The weights are read once per step for the whole batch", "the %d sequences share each read; their KV and the prefills slotted in between add a little", b),
					stepf("Average TPOT (engine)", "%s", fmtDur(t)),
				},
			}, nil
		}},
	{ID: "batch-throughput", Lesson: "batching", Title: "What a batch buys in throughput", Unit: Rate,
		Lab: "batching", Preset: "Sweep: find the knee",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			b := pick(r, 8, 16, 32, 64)
			res, err := simulateBatch(s.cfg, b, 300, 100)
			if err != nil {
				return Problem{}, err
			}
			rate := float64(b*100) / secs(res.Duration)
			return Problem{
				Question: fmt.Sprintf("A burst of %d requests (300-token prompts, 100-token answers) hits %s together. How many output tokens per second does the GPU produce over the whole burst?", b, s.d),
				Given:    given("Deployment", s.d.String(), "Batch", fmt.Sprintf("%d requests", b), "Prompt / answer", "300 / 100 tokens"),
				Answer:   rate,
				env:      env{cfg: s.cfg, batch: b, prompt: 300, output: 100},
				Steps: []Step{
					stepf("Output tokens", "%d × 100 = %s", b, fmtInt(b*100)),
					stepf("Burst duration (engine)", "%s", fmtDur(res.Duration)),
					stepf("Throughput", "%s ÷ %s = %s tokens/s", fmtInt(b*100), fmtDur(res.Duration), sig(rate)),
				},
			}, nil
		}},
}
