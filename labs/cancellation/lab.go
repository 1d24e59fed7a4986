// Package cancellation is the lab on cancellation and mid-stream errors.
// One support answer streams through the real pipeline from a shared live
// engine on the wall clock while the lab plays the client: it stops reading
// after N tokens (a closed tab) or meets an injected error mid-stream. The
// engine's own step trace counts every token it generates, so the learner
// sees generation stop when the disconnect is passed upstream, and run on to
// the end (and be paid for) when it is not. The partial answer is saved with
// how it ended, and a follow-up turn shows it coming back as history.
package cancellation

import (
	"context"
	"errors"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Slug is the lab's URL segment.
const Slug = "cancellation"

// Stat keys; tokens_after_disconnect is what the prediction is compared with.
const (
	statGenerated = "tokens_generated"
	statDelivered = "tokens_delivered"
	statAfter     = "tokens_after_disconnect"
	statSaved     = "tokens_saved"
	statCostSaved = "cost_saved"
)

// Config wires a Lab.
type Config struct {
	// Engines is the shared live-engine pool; required.
	Engines *labs.Engines
	// Retriever is the knowledge base (web/store in the app); nil switches
	// retrieval off.
	Retriever pipeline.Retriever
	// Quiet is how long the engine must go without a step of an aborted
	// request before the lab counts it as stopped. 0 means 500 ms, far
	// longer than any step.
	Quiet time.Duration
}

// Lab is the cancellation lab; safe for concurrent runs.
type Lab struct {
	cfg Config
	// ids number the runs so request ids and session lines are unique.
	ids *labs.RunIDs
}

// New returns the lab.
func New(cfg Config) *Lab {
	if cfg.Quiet <= 0 {
		cfg.Quiet = 500 * time.Millisecond
	}
	return &Lab{cfg: cfg, ids: labs.NewRunIDs(Slug)}
}

// Info describes the lab.
func (l *Lab) Info() labs.Info {
	return labs.Info{
		Slug:  Slug,
		Title: "Cancellation and mid-stream errors",
		Summary: "Stop reading an answer halfway, with and without passing the disconnect upstream, or break " +
			"the stream with an error; count the tokens the engine still writes and see what the history keeps.",
		Lesson:         "streaming-through-the-stack",
		Prediction:     "How many tokens will the engine generate after you stop reading?",
		PredictionUnit: "tokens",
		PredictionStat: statAfter,
	}
}

// Knobs lists the settings.
func (l *Lab) Knobs() []labs.Knob { return knobs() }

// Presets lists settings worth trying; the first is the default view.
func (l *Lab) Presets() []labs.Preset { return presets() }

// Run streams one answer and a follow-up turn, emitting frames as tokens
// are generated and delivered. Bad settings end in a final frame with
// Error and a nil error; ctx ending returns ctx's error without a final
// frame.
func (l *Lab) Run(ctx context.Context, v labs.Values, emit func(labs.Frame)) error {
	s, err := parse(v)
	if err != nil {
		emit(labs.NotRun(err))
		return nil
	}
	if l.cfg.Engines == nil {
		return errors.New("cancellation: no engine pool configured")
	}
	return l.run(ctx, s, emit)
}
