package practice

import (
	"fmt"
	"math/rand/v2"
)

// charsPerToken is the rule of thumb the lessons use for English text.
const charsPerToken = 4

var ttftTemplates = []Template{
	{ID: "ttft-prompt", Lesson: "time-to-first-token", Title: "First token of a long prompt", Unit: Duration,
		Lab: "prefill-decode", Preset: "The 3,200-token support prompt",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			prompt := between(r, 800, 6400, 200)
			res, err := simulateOne(s.cfg, prompt, 2)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("A user sends a %s-token prompt to %s with nothing else running. How long until the first token comes back?", fmtInt(prompt), s.d),
				Given:    given("Deployment", s.d.String(), "Prompt", fmtInt(prompt)+" tokens"),
				Answer:   secs(res.TTFT()),
				env:      env{cfg: s.cfg, prompt: prompt},
				Steps:    s.prefillSteps(prompt, res.TTFT()),
			}, nil
		}},
	{ID: "answer-kb", Lesson: "time-to-first-token", Title: "Writing a few kilobytes of answer", Unit: Duration,
		Lab: "streaming", Preset: "Streaming on an H100",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			kb := between(r, 2, 8, 1)
			out := kb * 1000 / charsPerToken
			res, err := simulateOne(s.cfg, 1000, out)
			if err != nil {
				return Problem{}, err
			}
			gen := res.E2E() - res.TTFT()
			steps := append([]Step{stepf("Tokens in the answer", "%d KB × 1,000 ÷ %d characters per token = %s tokens", kb, charsPerToken, fmtInt(out))},
				s.decodeSteps(tpot(res))...)
			steps = append(steps, stepf("Writing time after the first token", "(%s − 1) × %s = %s", fmtInt(out), fmtDur(tpot(res)), fmtDur(gen)))
			return Problem{
				Question: fmt.Sprintf("A typical answer is %d KB of English text (about %d characters per token). On %s, how long does the model take to write it after the first token?", kb, charsPerToken, s.d),
				Given:    given("Deployment", s.d.String(), "Answer size", fmt.Sprintf("%d KB", kb), "Prompt", "1,000 tokens"),
				Answer:   secs(gen),
				env:      env{cfg: s.cfg, prompt: 1000, timing: true, tokens: out, decodeOnly: true},
				Steps:    steps,
			}, nil
		}},
	{ID: "blocking-wait", Lesson: "time-to-first-token", Title: "Waiting for a blocking answer", Unit: Duration,
		Lab: "streaming", Preset: "Blocking on an H100",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			prompt, out := between(r, 1000, 4000, 200), between(r, 200, 900, 50)
			res, err := simulateOne(s.cfg, prompt, out)
			if err != nil {
				return Problem{}, err
			}
			return Problem{
				Question: fmt.Sprintf("Streaming is off. A %s-token prompt gets a %s-token answer from %s. How long does the user stare at a spinner before any text appears?", fmtInt(prompt), fmtInt(out), s.d),
				Given:    given("Deployment", s.d.String(), "Prompt", fmtInt(prompt)+" tokens", "Answer", fmtInt(out)+" tokens"),
				Answer:   secs(res.E2E()),
				env:      env{cfg: s.cfg, prompt: prompt, timing: true, tokens: out},
				Steps: []Step{
					stepf("Prefill (engine)", "TTFT = %s", fmtDur(res.TTFT())),
					stepf("Decode (engine)", "(%s − 1) × TPOT %s = %s", fmtInt(out), fmtDur(tpot(res)), fmtDur(res.E2E()-res.TTFT())),
					stepf("Blocking shows everything at the end", "%s + %s = %s", fmtDur(res.TTFT()), fmtDur(res.E2E()-res.TTFT()), fmtDur(res.E2E())),
				},
			}, nil
		}},
}
