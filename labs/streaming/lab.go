// Package streaming is the first lab: streaming against blocking. One real
// request runs through a shared live engine on the wall clock; with
// streaming the learner sees each token's text the moment the handler gets
// it, without streaming the handler buffers the answer and shows it whole at
// the end. Every figure is timed on the modelled GPU's clock (when the
// engine made each token), so a busy host that hands tokens to the handler
// late cannot bend it; the final status says when the host added more than
// a few percent, and when other learners' requests shared the GPU.
package streaming

import "github.com/latencylab/latencylab/labs"

// Slug is the lab's URL segment.
const Slug = "streaming"

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Streaming vs blocking",
		Summary: "Send one real request to a modelled GPU and watch the answer arrive token by token, " +
			"or all at once at the end. Time to first word is what the reader waits for.",
		Lesson:         "time-to-first-token",
		Prediction:     "What time to first word do you expect?",
		PredictionUnit: "ms",
		PredictionStat: statFirstWord,
		// The lessons ask for the total time too (time to first token,
		// and answering the latency question).
		Second: labs.SecondPrediction{Prediction: "And the total time until the answer is complete?", Unit: "ms", Stat: statTotal},
	}
}

// Config wires a Lab: the shared engine pool, whose clock times its runs.
type Config = labs.LiveConfig

// Lab is the streaming-vs-blocking lab. It is safe for concurrent runs.
type Lab struct{ labs.LiveLab[params] }

// New returns the lab, or an error when cfg lacks the engine pool.
func New(cfg Config) (*Lab, error) { return labs.NewLive(cfg, define, (*Lab).run) }
