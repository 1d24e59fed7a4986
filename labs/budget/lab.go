// Package budget is the latency-budget lab. One real support request goes
// through the whole pipeline on the wall clock — the guardrail's classifier,
// the FTS5 retrieval, the order lookup, prompt assembly with real token
// counts, and the bundled engine's prefill and decode — with the lesson's
// stage times as simulated service latencies, and its waterfall is drawn
// stage by stage. Then many requests with varying stage times are timed on
// the virtual clock, so the learner sees mean against p50/p95/p99 and checks
// a first-word budget at a percentile.
package budget

import (
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Slug is the lab's URL segment.
const Slug = "latency-budget"

// Stat keys.
const (
	statFirstWord = "first_word_ms"
	statComplete  = "complete_ms"
	statLookups   = "lookups_ms"
	statMean      = "mean_ms"
	statP50       = "p50_ms"
	statP95       = "p95_ms"
	statP99       = "p99_ms"
	// statJudged is the first word at the budget's percentile, the figure
	// the verdict (and the learner's guess) is about.
	statJudged = "judged_ms"
	// statSecondCall is the live request's second model call, start to end.
	statSecondCall = "second_call_ms"
)

// Config wires a Lab: the engine pool, and the knowledge base and order
// system its lookups query (nil switches that lookup off).
type Config = pipelinelab.Config

// Lab is the latency-budget lab; safe for concurrent runs.
type Lab = labs.Kit[params]

// New returns the lab, or an error when cfg has no engine pool.
func New(cfg Config) (*Lab, error) {
	return pipelinelab.New(cfg, define, params.settings, measure)
}

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Latency budget",
		Summary: "Follow one support request through guardrail, lookups, prompt and model on the clock, " +
			"then time hundreds more and check a first-word budget at p95.",
		Lesson:         "latency-budget",
		Prediction:     "What time to first word do you expect at the budget's percentile (p95 unless a preset changes it)?",
		PredictionUnit: "ms",
		PredictionStat: statJudged,
	}
}
