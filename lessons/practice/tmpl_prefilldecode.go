package practice

import (
	"fmt"
	"math/rand/v2"
)

var prefillDecodeTemplates = []Template{
	{ID: "weights-size", Lesson: "prefill-vs-decode", Title: "How big are the weights?", Unit: Bytes,
		Lab: "prefill-decode", Preset: "70B on H200 FP8",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("How many bytes of weights does %s hold in total (all GPUs together), at %s?", s.d.model, s.d.precision),
				Given:    given("Model", s.d.model, "Precision", string(s.d.precision)),
				Answer:   float64(s.fp.WeightBytes),
				env:      env{cfg: s.cfg},
				Steps: []Step{
					stepf("Parameters", "%s (from the model's layer sizes)", sig(float64(s.fp.ParamCount)/1e9)+" B"),
					stepf("Bytes", "%s × %s per parameter (embeddings stay 16-bit) = %s",
						sig(float64(s.fp.ParamCount)/1e9)+" B", bytesPerParamText(s.cfg.Precision), fmtBytes(float64(s.fp.WeightBytes))),
				},
			}, nil
		}},
	{ID: "decode-tpot", Lesson: "prefill-vs-decode", Title: "Time per output token, one stream", Unit: Duration,
		Lab: "prefill-decode", Preset: "Short chat prompt",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			t, err := s.singleStreamTPOT()
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("One user streams an answer from %s, nobody else is on the GPU. How long does each output token take?", s.d),
				Given:    given("Deployment", s.d.String(), "Batch", "1 request"),
				Answer:   secs(t),
				env:      env{cfg: s.cfg, prompt: singleStreamPrompt},
				Steps:    s.decodeSteps(t),
			}, nil
		}},
	{ID: "stream-rate", Lesson: "prefill-vs-decode", Title: "Tokens per second of one stream", Unit: Rate,
		Lab: "streaming", Preset: "Streaming on an H100",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			t, err := s.singleStreamTPOT()
			if err != nil {
				return Problem{}, err
			}
			steps := append(s.decodeSteps(t), stepf("Rate", "1 ÷ %s = %s tokens/s", fmtDur(t), sig(1/secs(t))))
			return Problem{
				Question: fmt.Sprintf("How many tokens per second does a single stream from %s deliver once the first token is out?", s.d),
				Given:    given("Deployment", s.d.String(), "Batch", "1 request"),
				Answer:   1 / secs(t),
				env:      env{cfg: s.cfg, prompt: singleStreamPrompt},
				Steps:    steps,
			}, nil
		}},
	{ID: "rag-extra-ttft", Lesson: "prefill-vs-decode", Title: "What more passages cost the first token", Unit: Duration,
		Lab: "rag", Preset: "Top-20 + long history",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			base, k, per := between(r, 800, 2000, 100), between(r, 5, 20, 1), between(r, 80, 200, 20)
			a, err := simulateOne(s.cfg, base, 2)
			if err != nil {
				return Problem{}, err
			}
			b, err := simulateOne(s.cfg, base+k*per, 2)
			if err != nil {
				return Problem{}, err
			}
			extra := b.TTFT() - a.TTFT()
			return Problem{
				Question: fmt.Sprintf("A %s-token prompt on %s gains %d more retrieved passages of %d tokens each. How much later does the first token arrive?", fmtInt(base), s.d, k, per),
				Given:    given("Deployment", s.d.String(), "Prompt before", fmtInt(base)+" tokens", "Added", fmt.Sprintf("%d × %d tokens", k, per)),
				Answer:   secs(extra),
				env:      env{cfg: s.cfg, prompt: base, output: base + k*per},
				Steps: []Step{
					stepf("Extra prompt", "%d × %d = %s tokens", k, per, fmtInt(k*per)),
					stepf("Extra arithmetic", "2 × %s parameters × %s tokens ≈ %s TFLOPs", sig(float64(s.fp.ParamCount)/1e9)+" B", fmtInt(k*per), sig(2*float64(s.fp.ParamCount)*float64(k*per)/1e12)),
					stepf("Engine TTFT before and after", "%s → %s: %s later", fmtDur(a.TTFT()), fmtDur(b.TTFT()), fmtDur(extra)),
				},
			}, nil
		}},
}
