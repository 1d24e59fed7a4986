// Package levers is the levers lab: the same support question answered
// once as a slow baseline and then with each latency lever applied alone —
// streaming, a shorter answer, a smaller model, a cache hit, parallel
// lookups, one model call fewer — and finally all of them at once. Every
// row is a real run through the pipeline and the bundled engine, with the
// first word, the total time and the cost measured, so the learner sees
// which lever moves which number and by how much.
package levers

import (
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Slug is the lab's URL segment.
const Slug = "levers"

// Stat keys.
const (
	statBaseFirst    = "baseline_first_word_ms"
	statBestFirst    = "best_first_word_ms"
	statBaseTotal    = "baseline_total_ms"
	statBestTotal    = "best_total_ms"
	statShorterSaves = "shorter_saves_ms"
	// The answer's model call alone on the baseline, the small tier and
	// the shorter answer: the lesson's 4.4 s, 2.3 s and 1.9 s.
	statAnswerCall  = "answer_call_ms"
	statAnswerSmall = "answer_small_ms"
	statAnswerShort = "answer_short_ms"
)

// DefaultWallLimit is how long the whole set of runs may take on the wall
// clock; beyond it the lab runs on the virtual clock instead.
const DefaultWallLimit = 20 * time.Second

// Config wires a Lab: the engine pool, and the knowledge base and order
// system its lookups query (nil switches that lookup off).
type Config = pipelinelab.Config

// Lab is the levers lab; safe for concurrent runs.
type Lab = labs.Kit[params]

// New returns the lab, or an error when cfg has no engine pool.
func New(cfg Config) (*Lab, error) { return newLab(cfg, DefaultWallLimit) }

// newLab is New with the wall-clock limit as a parameter, so tests can
// force either path.
func newLab(cfg Config, wallLimit time.Duration) (*Lab, error) {
	return pipelinelab.New(cfg, define, params.settings, runner{wallLimit}.run)
}

// runner runs the set live when it takes no longer than wallLimit on the
// wall clock.
type runner struct{ wallLimit time.Duration }

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "The levers",
		Summary: "One question, a slow baseline, then each latency lever on its own: stream, shorten, " +
			"a smaller model, a cache hit, parallel lookups, one model call fewer. Measured, side by side.",
		Lesson:         "levers",
		Prediction:     "How much total time (ms) will the shorter answer save?",
		PredictionUnit: "ms",
		PredictionStat: statShorterSaves,
	}
}
