// Package prefilldecode is the prefill-vs-decode lab. It shows the two
// phases of a request from measurements: on the virtual clock, single
// requests at several prompt lengths and answer lengths give time to first
// token against prompt length and decode time against answer length, with
// least-squares lines; the learner's own request then runs on the wall clock
// on the shared engine for the chosen model and GPU, so the wait for the
// first token is felt; its figures are the modelled GPU's times, so a busy
// host cannot bend them (the final status says when the host delivered
// late, or other requests shared the GPU). A roofline places that
// request's prefill and decode steps by arithmetic intensity, computed from
// the inputs the engine gave its cost model for those steps, and a second
// customer sharing the system prompt shows what a cached prefix saves.
package prefilldecode

import "github.com/latencylab/latencylab/labs"

// Config wires a Lab: the shared engine pool, whose clock times its runs.
type Config = labs.LiveConfig

// Lab is the prefill-vs-decode lab: its sweeps run on the virtual clock,
// the learner's requests on the pool's engine and clock. It is safe for
// concurrent runs.
type Lab struct{ labs.LiveLab[params] }

// New returns the lab, or an error when cfg lacks the engine pool.
func New(cfg Config) (*Lab, error) { return labs.NewLive(cfg, define, (*Lab).run) }

// info describes the lab for the catalogue; its prediction is the time to
// first token, which the learner's own request then measures.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Prefill vs decode",
		Summary: "Grow the prompt and the answer separately and measure what each does: reading the prompt " +
			"sets the time to first token, writing the answer sets the time per token. A roofline shows why.",
		Lesson:         "prefill-vs-decode",
		Prediction:     "What time to first token do you expect for this prompt?",
		PredictionUnit: "ms",
		PredictionStat: statTTFT,
	}
}

// Slug is the lab's URL segment.
const Slug = "prefill-decode"
