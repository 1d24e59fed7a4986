package practice

import (
	"fmt"
	"math/rand/v2"
	"time"
)

var timeoutTemplates = []Template{
	{ID: "fallback-first-token", Lesson: "timeouts-and-deadlines", Title: "First token after a fallback", Unit: Duration,
		Lab: "timeouts", Preset: "5 s first-token timeout with fallback",
		draw: func(r *rand.Rand) (Problem, error) {
			s, _, err := tierSetup("small")
			if err != nil {
				return Problem{}, err
			}
			limit := time.Duration(between(r, 2, 8, 1)) * time.Second
			gw := time.Duration(between(r, 10, 40, 5)) * time.Millisecond
			prompt := between(r, 1000, 4000, 250)
			res, err := simulateOne(s.cfg, prompt, 2)
			if err != nil {
				return Problem{}, err
			}
			at := limit + gw + res.TTFT()
			return Problem{
				Question: fmt.Sprintf("The primary model sends nothing; the first-token timeout of %s fires and the gateway (%s per hop) retries on the small tier (%s) with the same %s-token prompt. When does the first token arrive, counted from the timeout's start?", fmtDur(limit), fmtDur(gw), s.d, fmtInt(prompt)),
				Given:    given("First-token timeout", fmtDur(limit), "Gateway hop", fmtDur(gw), "Fallback", s.d.String(), "Prompt", fmtInt(prompt)+" tokens"),
				Answer:   secs(at),
				env:      env{cfg: s.cfg, prompt: prompt, timing: true, tokens: 1, extra: secs(limit + gw)},
				Steps: []Step{
					stepf("Fallback prefill (engine)", "TTFT = %s", fmtDur(res.TTFT())),
					stepf("Timeout + hop + prefill", "%s + %s + %s = %s", fmtDur(limit), fmtDur(gw), fmtDur(res.TTFT()), fmtDur(at)),
				},
			}, nil
		}},
	{ID: "tokens-by-timeout", Lesson: "timeouts-and-deadlines", Title: "Tokens written before an overall timeout", Unit: Tokens,
		Lab: "timeouts", Preset: "Provider slowdown, no timeout",
		draw: func(r *rand.Rand) (Problem, error) {
			s, err := drawSetup(r)
			if err != nil {
				return Problem{}, err
			}
			res, err := simulateOne(s.cfg, 2000, 64)
			if err != nil {
				return Problem{}, err
			}
			t := tpot(res)
			// the limit falls between token 10 and 50 of the answer
			limit := res.TTFT() + time.Duration(between(r, 10, 50, 1))*t
			limit = limit.Round(10 * time.Millisecond)
			n := 0
			for _, at := range res.TokenTimes {
				if at-res.Arrival <= limit {
					n++
				}
			}
			return Problem{
				Question: fmt.Sprintf("A call to %s with a 2,000-token prompt has an overall timeout of %s. How many tokens has the user seen when it fires?", s.d, fmtDur(limit)),
				Given:    given("Deployment", s.d.String(), "Overall timeout", fmtDur(limit), "Prompt", "2,000 tokens"),
				Answer:   float64(n),
				env:      env{cfg: s.cfg, prompt: 2000, output: 64, limit: limit},
				Steps: []Step{
					stepf("First token (engine)", "TTFT = %s, then TPOT %s", fmtDur(res.TTFT()), fmtDur(t)),
					stepf("Tokens", "1 + (%s − %s) ÷ %s ≈ %d tokens", fmtDur(limit), fmtDur(res.TTFT()), fmtDur(t), n),
				},
			}, nil
		}},
	{ID: "deadline-left", Lesson: "timeouts-and-deadlines", Title: "Deadline left for a retry", Unit: Duration,
		Lab: "timeouts", Preset: "Shared 20 s deadline with a retry at 18 s",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			deadline := time.Duration(between(r, 10, 30, 5)) * time.Second
			failed := time.Duration(between(r, 2, 8, 1)) * time.Second
			used := st.guard + st.lookupsMax() + st.gateway + failed
			left := deadline - used
			return Problem{
				Question: fmt.Sprintf("A request has one %s deadline for everything. The guardrail ran, the lookups ran in parallel, the gateway hop passed, then the first model call failed after %s. How much time does the retry have?", fmtDur(deadline), fmtDur(failed)),
				Given:    append(given("Deadline", fmtDur(deadline), "Failed call", fmtDur(failed)), st.facts()...),
				Answer:   secs(left),
				env:      env{st: st, limit: deadline, spent: failed},
				Steps: []Step{
					stepf("Spent", "%s + max(%s, %s, %s) + %s + %s = %s", fmtDur(st.guard), fmtDur(st.history), fmtDur(st.retrieval), fmtDur(st.order), fmtDur(st.gateway), fmtDur(failed), fmtDur(used)),
					stepf("Left", "%s − %s = %s", fmtDur(deadline), fmtDur(used), fmtDur(left)),
				},
			}, nil
		}},
}
