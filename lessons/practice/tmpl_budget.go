package practice

import (
	"fmt"
	"math/rand/v2"
	"time"
)

var budgetTemplates = []Template{
	{ID: "budget-sequential", Lesson: "latency-budget", Title: "First token through a sequential pipeline", Unit: Duration,
		Lab: "latency-budget", Preset: "Sequential lookups",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			s, _, err := tierSetup("medium")
			if err != nil {
				return Problem{}, err
			}
			prompt := between(r, 1500, 4000, 100)
			res, err := simulateOne(s.cfg, prompt, 2)
			if err != nil {
				return Problem{}, err
			}
			pre := st.guard + st.lookupsSum() + st.gateway
			total := pre + res.TTFT()
			return Problem{
				Question: fmt.Sprintf("The support assistant runs every step one after another, then calls the medium tier (%s) with a %s-token prompt. When does the first token reach the user?", s.d, fmtInt(prompt)),
				Given:    append(st.facts(), given("Model", s.d.String(), "Prompt", fmtInt(prompt)+" tokens")...),
				Answer:   secs(total),
				env:      env{cfg: s.cfg, prompt: prompt, timing: true, tokens: 1, extra: secs(pre)},
				Steps: []Step{
					stepf("Before the model", "%s + %s + %s + %s + %s = %s", fmtDur(st.guard), fmtDur(st.history), fmtDur(st.retrieval), fmtDur(st.order), fmtDur(st.gateway), fmtDur(pre)),
					stepf("Prefill (engine)", "TTFT = %s", fmtDur(res.TTFT())),
					stepf("First token", "%s + %s = %s", fmtDur(pre), fmtDur(res.TTFT()), fmtDur(total)),
				},
			}, nil
		}},
	{ID: "budget-left", Lesson: "latency-budget", Title: "Budget left for the model", Unit: Duration,
		Lab: "latency-budget", Preset: "Seed example: parallel lookups",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			target := time.Duration(between(r, 800, 2000, 100)) * time.Millisecond
			pre := st.guard + st.lookupsMax() + st.gateway
			left := target - pre
			return Problem{
				Question: fmt.Sprintf("The first token must arrive within %s. The guardrail runs first, the three lookups run in parallel, then the gateway. How much of the target is left for the model's own time to first token?", fmtDur(target)),
				Given:    append(given("Target", fmtDur(target)), st.facts()...),
				Answer:   secs(left),
				env:      env{st: st, limit: target},
				Steps: []Step{
					stepf("Lookups in parallel", "max(%s, %s, %s) = %s", fmtDur(st.history), fmtDur(st.retrieval), fmtDur(st.order), fmtDur(st.lookupsMax())),
					stepf("Before the model", "%s + %s + %s = %s", fmtDur(st.guard), fmtDur(st.lookupsMax()), fmtDur(st.gateway), fmtDur(pre)),
					stepf("Left", "%s − %s = %s", fmtDur(target), fmtDur(pre), fmtDur(left)),
				},
			}, nil
		}},
	{ID: "budget-tail", Lesson: "latency-budget", Title: "A stage's p99 with rare stalls", Unit: Duration,
		Lab: "latency-budget", Preset: "Heavy tail: one in twenty slow",
		draw: func(r *rand.Rand) (Problem, error) {
			base := time.Duration(between(r, 50, 300, 10)) * time.Millisecond
			spike := time.Duration(between(r, 1, 12, 1)) * time.Second
			every := pick(r, 10, 20, 50)
			p99 := base + spike
			return Problem{
				Question: fmt.Sprintf("A retrieval service usually answers in %s, but one call in %d stalls for an extra %s. What is its 99th-percentile latency?", fmtDur(base), every, fmtDur(spike)),
				Given:    given("Usual", fmtDur(base), "Stalls", fmt.Sprintf("1 in %d", every), "Stall", fmtDur(spike)),
				Answer:   secs(p99),
				env:      env{limit: base, spent: spike, every: every},
				Steps: []Step{
					stepf("Share of slow calls", "1 ÷ %d = %s%%, more than the 1%% the p99 leaves out", every, sig(100/float64(every))),
					stepf("So the p99 lands on a stalled call", "%s + %s = %s (the mean hides it)", fmtDur(base), fmtDur(spike), fmtDur(p99)),
				},
			}, nil
		}},
}
