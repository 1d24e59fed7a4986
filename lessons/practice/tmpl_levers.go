package practice

import (
	"fmt"
	"math/rand/v2"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
)

var leverTemplates = []Template{
	{ID: "request-cost", Lesson: "levers", Title: "Price of one answer", Unit: Dollars,
		Lab: "levers", Preset: "Default: the lesson's baseline",
		draw: func(r *rand.Rand) (Problem, error) {
			name := pick(r, "small", "medium", "large")
			_, spec, err := tierSetup(name)
			if err != nil {
				return Problem{}, err
			}
			in, out := between(r, 1000, 6000, 500), between(r, 100, 800, 50)
			tier := pipeline.Tier{Name: spec.Name, PriceIn: spec.PriceIn, PriceOut: spec.PriceOut}
			cost := tier.Cost(pipeline.Usage{PromptTokens: in, CompletionTokens: out})
			return Problem{
				Question: fmt.Sprintf("On the %s tier (%s per million input tokens, %s per million output tokens), what does one answer with a %s-token prompt and %s output tokens cost?", name, "$"+sig(spec.PriceIn), "$"+sig(spec.PriceOut), fmtInt(in), fmtInt(out)),
				Given:    given("Tier", name, "Prompt", fmtInt(in)+" tokens", "Answer", fmtInt(out)+" tokens"),
				Answer:   cost,
				env:      env{prompt: in, output: out},
				Steps: []Step{stepf("Tokens × price", "(%s × $%s + %s × $%s) ÷ 1,000,000 = $%s",
					fmtInt(in), sig(spec.PriceIn), fmtInt(out), sig(spec.PriceOut), sig(cost))},
			}, nil
		}},
	{ID: "shorter-answer", Lesson: "levers", Title: "Asking for a shorter answer", Unit: Duration,
		Lab: "levers", Preset: "Long answers on the large tier",
		draw: func(r *rand.Rand) (Problem, error) {
			s, _, err := tierSetup(pick(r, "medium", "large"))
			if err != nil {
				return Problem{}, err
			}
			long := between(r, 400, 900, 50)
			short := long / pick(r, 2, 3, 4)
			a, err := simulateOne(s.cfg, 2000, long)
			if err != nil {
				return Problem{}, err
			}
			b, err := simulateOne(s.cfg, 2000, short)
			if err != nil {
				return Problem{}, err
			}
			saved := a.E2E() - b.E2E()
			return Problem{
				Question: fmt.Sprintf("Answers from %s average %s tokens. A prompt change brings them down to %s tokens. How much sooner does the last token arrive?", s.d, fmtInt(long), fmtInt(short)),
				Given:    given("Model", s.d.String(), "Before", fmtInt(long)+" tokens", "After", fmtInt(short)+" tokens", "Prompt", "2,000 tokens"),
				Answer:   secs(saved),
				env:      env{cfg: s.cfg, prompt: 2000, output: long, tokens: short},
				Steps: []Step{
					stepf("Time per token (engine)", "TPOT = %s", fmtDur(tpot(a))),
					stepf("Fewer tokens", "(%s − %s) × %s ≈ %s", fmtInt(long), fmtInt(short), fmtDur(tpot(a)), fmtDur(saved)),
				},
			}, nil
		}},
	{ID: "fp8-tpot", Lesson: "levers", Title: "Time per token with 8-bit weights", Unit: Duration,
		Lab: "prefill-decode", Preset: "70B on H200 FP8",
		draw: func(r *rand.Rand) (Problem, error) {
			d := pick(r, deployments...)
			d.precision = engine.FP8
			s, err := newSetup(d)
			if err != nil {
				return Problem{}, err
			}
			t, err := s.singleStreamTPOT()
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("The team quantises %s to 8-bit weights on %s. What is the time per output token of a single stream now?", d.model, d.gpu),
				Given:    given("Deployment", s.d.String(), "Batch", "1 request"),
				Answer:   secs(t),
				env:      env{cfg: s.cfg, prompt: singleStreamPrompt},
				Steps:    s.decodeSteps(t),
			}, nil
		}},
	{ID: "large-tier-answer", Lesson: "levers", Title: "A long answer on the large tier", Unit: Duration,
		Lab: "levers", Preset: "Long answers on the large tier",
		draw: func(r *rand.Rand) (Problem, error) {
			s, _, err := tierSetup("large")
			if err != nil {
				return Problem{}, err
			}
			prompt, out := between(r, 1000, 4000, 250), between(r, 200, 700, 50)
			res, err := simulateOne(s.cfg, prompt, out)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("The large tier runs %s. How long from sending a %s-token prompt to the last of %s output tokens?", s.d, fmtInt(prompt), fmtInt(out)),
				Given:    given("Model", s.d.String(), "Prompt", fmtInt(prompt)+" tokens", "Answer", fmtInt(out)+" tokens"),
				Answer:   secs(res.E2E()),
				env:      env{cfg: s.cfg, prompt: prompt, timing: true, tokens: out},
				Steps: append(s.decodeSteps(tpot(res)),
					stepf("End to end (engine)", "TTFT %s + (%s − 1) × %s = %s", fmtDur(res.TTFT()), fmtInt(out), fmtDur(tpot(res)), fmtDur(res.E2E()))),
			}, nil
		}},
}
