// Package stack is the lab on streaming through the stack: one answer from
// the bundled engine travels hop by hop, from the provider's wire format
// (OpenAI-style chunks or Anthropic-style events) through the gateway that
// turns either into the app's one event stream, through a reverse proxy
// that may buffer it, to the browser. Each hop's raw bytes are shown with
// the moment they move, and the words on the reader's screen are drawn
// over time with the proxy and without it, so an answer that streams on a
// laptop and lands in one lump behind a buffering proxy can be seen, and
// fixed. Every time is the modelled GPU's (when the engine made each
// token) pushed through the hops' rules, so the figures do not depend on
// how busy the host running the lab is.
package stack

import (
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "stack"

// Stat keys; first_word_ms is what the prediction is compared with.
const (
	statFirstWord = "first_word_ms"
	statLastWord  = "last_word_ms"
	statBursts    = "bursts"
	statLongest   = "longest_gap_ms"
)

// info describes the lab.
func info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Streaming through the stack",
		Summary: "Follow one streamed answer through the provider's format, the gateway, a reverse proxy and the " +
			"browser, with each hop's raw events; see a buffering proxy turn a stream into one lump, and fix it.",
		Lesson:         "streaming-through-the-stack",
		Prediction:     "When will the first word reach the browser?",
		PredictionUnit: "ms",
		PredictionStat: statFirstWord,
	}
}

// Config wires a Lab: the shared engine pool, whose clock times its runs.
type Config = labs.LiveConfig

// Lab is the streaming-through-the-stack lab; safe for concurrent runs.
type Lab struct{ labs.LiveLab[params] }

// New returns the lab, or an error when cfg lacks the engine pool.
func New(cfg Config) (*Lab, error) { return labs.NewLive(cfg, define, (*Lab).run) }
