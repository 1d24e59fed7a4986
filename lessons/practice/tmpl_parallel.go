package practice

import (
	"fmt"
	"math/rand/v2"
)

var parallelTemplates = []Template{
	{ID: "parallel-lookups", Lesson: "parallel-steps", Title: "Three lookups at once", Unit: Duration,
		Lab: "latency-budget", Preset: "Seed example: parallel lookups",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			return Problem{
				Question: "History, document retrieval and the order lookup are started together and the prompt waits for all three. How long does the context stage take?",
				Given:    st.facts()[1:4],
				Answer:   secs(st.lookupsMax()),
				env:      env{st: st},
				Steps: []Step{stepf("The slowest one sets it", "max(%s, %s, %s) = %s",
					fmtDur(st.history), fmtDur(st.retrieval), fmtDur(st.order), fmtDur(st.lookupsMax()))},
			}, nil
		}},
	{ID: "parallel-saving", Lesson: "parallel-steps", Title: "What running them together saves", Unit: Duration,
		Lab: "latency-budget", Preset: "Sequential lookups",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			saved := st.lookupsSum() - st.lookupsMax()
			return Problem{
				Question: "The three lookups now run one after another. How much time per request does starting them together save?",
				Given:    st.facts()[1:4],
				Answer:   secs(saved),
				env:      env{st: st},
				Steps: []Step{
					stepf("One after another", "%s + %s + %s = %s", fmtDur(st.history), fmtDur(st.retrieval), fmtDur(st.order), fmtDur(st.lookupsSum())),
					stepf("Together", "max(…) = %s", fmtDur(st.lookupsMax())),
					stepf("Saved", "%s − %s = %s", fmtDur(st.lookupsSum()), fmtDur(st.lookupsMax()), fmtDur(saved)),
				},
			}, nil
		}},
	{ID: "guard-alongside", Lesson: "parallel-steps", Title: "Safety check alongside the lookups", Unit: Duration,
		Lab: "latency-budget", Preset: "Seed example: parallel lookups",
		draw: func(r *rand.Rand) (Problem, error) {
			st := drawStages(r)
			before := st.guard + st.lookupsMax()
			after := max(st.guard, st.lookupsMax())
			return Problem{
				Question: "The input guardrail runs first, then the three lookups together. If the guardrail starts alongside the lookups instead (cancelling them if it blocks), how long is the stage before the prompt can be built?",
				Given:    st.facts()[:4],
				Answer:   secs(after),
				env:      env{st: st},
				Steps: []Step{
					stepf("Now", "%s + max(%s, %s, %s) = %s", fmtDur(st.guard), fmtDur(st.history), fmtDur(st.retrieval), fmtDur(st.order), fmtDur(before)),
					stepf("Alongside", "max(%s, %s) = %s", fmtDur(st.guard), fmtDur(st.lookupsMax()), fmtDur(after)),
				},
			}, nil
		}},
	{ID: "helper-calls", Lesson: "parallel-steps", Title: "Two helper model calls in a row", Unit: Duration,
		Lab: "levers", Preset: "Default: the lesson's baseline",
		draw: func(r *rand.Rand) (Problem, error) {
			s, _, err := tierSetup("small")
			if err != nil {
				return Problem{}, err
			}
			p1, o1 := between(r, 300, 1200, 100), between(r, 20, 120, 10)
			p2, o2 := between(r, 300, 1200, 100), between(r, 20, 120, 10)
			a, err := simulateOne(s.cfg, p1, o1)
			if err != nil {
				return Problem{}, err
			}
			b, err := simulateOne(s.cfg, p2, o2)
			if err != nil {
				return Problem{}, err
			}
			total := a.E2E() + b.E2E()
			return Problem{
				Question: fmt.Sprintf("Before answering, the service calls the small tier (%s) twice in a row: a query rewrite (%s-token prompt, %d-token output) and a classifier (%s-token prompt, %d-token output). How long do the two calls add before the main answer starts?", s.d, fmtInt(p1), o1, fmtInt(p2), o2),
				Given:    given("Model", s.d.String(), "Rewrite", fmt.Sprintf("%s in / %d out", fmtInt(p1), o1), "Classifier", fmt.Sprintf("%s in / %d out", fmtInt(p2), o2)),
				Answer:   secs(total),
				env:      env{cfg: s.cfg, calls: [][2]int{{p1, o1}, {p2, o2}}},
				Steps: []Step{
					stepf("Rewrite (engine)", "TTFT %s + (%d − 1) × %s = %s", fmtDur(a.TTFT()), o1, fmtDur(tpot(a)), fmtDur(a.E2E())),
					stepf("Classifier (engine)", "TTFT %s + (%d − 1) × %s = %s", fmtDur(b.TTFT()), o2, fmtDur(tpot(b)), fmtDur(b.E2E())),
					stepf("In a row", "%s + %s = %s (together they would take the longer, %s)", fmtDur(a.E2E()), fmtDur(b.E2E()), fmtDur(total), fmtDur(max(a.E2E(), b.E2E()))),
				},
			}, nil
		}},
}
