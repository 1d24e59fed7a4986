package practice

import (
	"fmt"
	"math/rand/v2"
	"time"
)

var moderationTemplates = []Template{
	{ID: "window-first-text", Lesson: "moderation-and-streaming", Title: "First text behind a moderation window", Unit: Duration,
		Lab: "moderation", Preset: "Buffered window",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			w, check := between(r, 20, 120, 10), time.Duration(between(r, 30, 200, 10))*time.Millisecond
			res, err := simulateOne(s.cfg, 1500, w+10)
			if err != nil {
				return Problem{}, err
			}
			at := res.TokenTimes[w-1] - res.Arrival + check
			return Problem{
				Question: fmt.Sprintf("The answer from %s is held back in windows of %d tokens, each checked by a moderation call taking %s before it is shown. The prompt is 1,500 tokens. When does the user see the first text?", s.d, w, fmtDur(check)),
				Given:    given("Deployment", s.d.String(), "Window", fmt.Sprintf("%d tokens", w), "Check", fmtDur(check), "Prompt", "1,500 tokens"),
				Answer:   secs(at),
				env:      env{cfg: s.cfg, prompt: 1500, timing: true, tokens: w, extra: secs(check)},
				Steps: []Step{
					stepf("First token (engine)", "TTFT = %s", fmtDur(res.TTFT())),
					stepf("Fill the window", "(%d − 1) × TPOT %s ≈ %s", w, fmtDur(tpot(res)), fmtDur(res.TokenTimes[w-1]-res.FirstToken)),
					stepf("Check it", "%s + %s + %s = %s", fmtDur(res.TTFT()), fmtDur(res.TokenTimes[w-1]-res.FirstToken), fmtDur(check), fmtDur(at)),
				},
			}, nil
		}},
	{ID: "moderate-then-send", Lesson: "moderation-and-streaming", Title: "Moderating the whole answer first", Unit: Duration,
		Lab: "moderation", Preset: "Moderate then send",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			out, check := between(r, 200, 800, 50), time.Duration(between(r, 50, 400, 25))*time.Millisecond
			res, err := simulateOne(s.cfg, 1500, out)
			if err != nil {
				return Problem{}, err
			}
			at := res.E2E() + check
			return Problem{
				Question: fmt.Sprintf("Every answer must pass a %s moderation check before the user sees any of it. A %s-token answer comes from %s for a 1,500-token prompt. When does the first word appear?", fmtDur(check), fmtInt(out), s.d),
				Given:    given("Deployment", s.d.String(), "Answer", fmtInt(out)+" tokens", "Check", fmtDur(check)),
				Answer:   secs(at),
				env:      env{cfg: s.cfg, prompt: 1500, timing: true, tokens: out, extra: secs(check)},
				Steps: []Step{
					stepf("Whole answer (engine)", "TTFT %s + (%s − 1) × TPOT %s = %s", fmtDur(res.TTFT()), fmtInt(out), fmtDur(tpot(res)), fmtDur(res.E2E())),
					stepf("Then the check", "%s + %s = %s", fmtDur(res.E2E()), fmtDur(check), fmtDur(at)),
				},
			}, nil
		}},
	{ID: "leak-before-abort", Lesson: "moderation-and-streaming", Title: "Tokens shown before a late verdict", Unit: Tokens,
		Lab: "moderation", Preset: "Abort mid-stream",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			check := time.Duration(between(r, 100, 600, 50)) * time.Millisecond
			res, err := simulateOne(s.cfg, 800, 64)
			if err != nil {
				return Problem{}, err
			}
			t := tpot(res)
			n := float64(check) / float64(t)
			return Problem{
				Question: fmt.Sprintf("The stream from %s goes straight to the user while a moderation call on the first sentence runs alongside; the call takes %s. If it says stop, about how many more tokens has the user already seen?", s.d, fmtDur(check)),
				Given:    given("Deployment", s.d.String(), "Moderation call", fmtDur(check)),
				Answer:   n,
				env:      env{cfg: s.cfg, prompt: 800, tokens: 64, extra: secs(check)},
				Steps: []Step{
					stepf("Time per token (engine)", "TPOT = %s", fmtDur(t)),
					stepf("Tokens during the call", "%s ÷ %s ≈ %s tokens", fmtDur(check), fmtDur(t), sig(n)),
				},
			}, nil
		}},
}
