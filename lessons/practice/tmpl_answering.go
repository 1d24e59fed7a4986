package practice

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

var answeringTemplates = []Template{
	{ID: "whole-request", Lesson: "answering-the-latency-question", Title: "The whole request, start to last token", Unit: Duration,
		Lab: "latency-budget", Preset: "Seed example: parallel lookups",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			s, _, err := tierSetup("medium")
			if err != nil {
				return Problem{}, err
			}
			prompt, out := between(r, 1500, 4000, 100), between(r, 150, 500, 50)
			res, err := simulateOne(s.cfg, prompt, out)
			if err != nil {
				return Problem{}, err
			}
			pre := st.guard + st.lookupsMax() + st.gateway
			total := pre + res.E2E()
			return Problem{
				Question: fmt.Sprintf("Guardrail first, lookups in parallel, the gateway, then the medium tier (%s) writes a %s-token answer to a %s-token prompt. How long until the last token?", s.d, fmtInt(out), fmtInt(prompt)),
				Given:    append(st.facts(), given("Model", s.d.String(), "Prompt", fmtInt(prompt)+" tokens", "Answer", fmtInt(out)+" tokens")...),
				Answer:   secs(total),
				env:      env{cfg: s.cfg, prompt: prompt, timing: true, tokens: out, extra: secs(pre)},
				Steps: []Step{
					stepf("Before the model", "%s + %s + %s = %s", fmtDur(st.guard), fmtDur(st.lookupsMax()), fmtDur(st.gateway), fmtDur(pre)),
					stepf("Model (engine)", "TTFT %s + (%s − 1) × %s = %s", fmtDur(res.TTFT()), fmtInt(out), fmtDur(tpot(res)), fmtDur(res.E2E())),
					stepf("Total", "%s + %s = %s", fmtDur(pre), fmtDur(res.E2E()), fmtDur(total)),
				},
			}, nil
		}},
	{ID: "huge-prompt-ttft", Lesson: "answering-the-latency-question", Title: "What if the prompt is a whole document?", Unit: Duration,
		Lab: "prefill-decode", Preset: "Long document (16k)",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			prompt := between(r, 12000, 24000, 1000)
			res, err := simulateOne(s.cfg, prompt, 2)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("The interviewer pushes: the prompt is now %s tokens. On %s, alone on the GPU, how long until the first token?", fmtInt(prompt), s.d),
				Given:    given("Deployment", s.d.String(), "Prompt", fmtInt(prompt)+" tokens"),
				Answer:   secs(res.TTFT()),
				Steps: slices.Insert(s.prefillSteps(prompt, res.TTFT()), 2,
					stepf("Why more than linear", "attention compares every prompt token with all before it, so its work grows with the square of %s", fmtInt(prompt))),
				env: env{cfg: s.cfg, prompt: prompt},
			}, nil
		}},
	{ID: "gpu-requests-per-second", Lesson: "answering-the-latency-question", Title: "Requests a GPU finishes per second", Unit: RequestRate,
		Lab: "batching", Preset: "Sweep: find the knee",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			b := pick(r, 16, 32, 64)
			out := between(r, 100, 200, 50)
			res, err := simulateBatch(s.cfg, b, 1000, out)
			if err != nil {
				return Problem{}, err
			}
			rps := float64(b) / secs(res.Duration)
			return Problem{
				Question: fmt.Sprintf("%s serves waves of %d requests at once (1,000-token prompts, %d-token answers). How many requests per second does it finish?", s.d, b, out),
				Given:    given("Deployment", s.d.String(), "Batch", fmt.Sprintf("%d requests", b), "Prompt / answer", fmt.Sprintf("1,000 / %d tokens", out)),
				Answer:   rps,
				env:      env{cfg: s.cfg, batch: b, prompt: 1000, output: out},
				Steps: []Step{
					stepf("One wave (engine)", "prefill of %d prompts, then %d decode steps at TPOT %s: %s", b, out, fmtDur(meanTPOT(res)), fmtDur(res.Duration)),
					stepf("Rate", "%d ÷ %s = %s req/s", b, fmtDur(res.Duration), sig(rps)),
				},
			}, nil
		}},
}
