package rag

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestStarvedReaderKeepsFigures: a handler that takes 60 ms over every
// frame no longer holds up the pipeline (its frames go out from a goroutine
// of their own), so the run's figures are the calm run's, and neither run
// says the server was busy: nothing late reached the pipeline.
func TestStarvedReaderKeepsFigures(t *testing.T) {
	vals := labtest.Values(labs.Values{knobTopK: 5.0})
	newLab := func(pool *labs.Engines) labs.Lab {
		desk := labtest.NewFakeStore()
		return labtest.Must[*Lab](t)(New(Config{Engines: pool, Retriever: desk, Orders: desk, RunTag: "test"}))
	}
	calm := labtest.RunBusy(t, newLab, vals, labtest.Busy{})
	starved := labtest.RunBusy(t, newLab, vals, labtest.Busy{Consume: 60 * time.Millisecond})
	t.Log(calm.Status, " || ", starved.Status)
	labtest.CheckGPUFigures(t, calm, starved)
	if labtest.HasNote(calm, labtest.BusyNote) || labtest.HasNote(starved, labtest.BusyNote) {
		t.Errorf("a run says the server was busy: %q || %q", calm.Status, starved.Status)
	}
}

// TestStarvedHostKeepsFigures: on a host whose every wait ends 150 ms late
// (the history lookup, the retrieval, the prompt's gateway hop and the
// engine's runner all scheduled late) the figures are the modelled ones,
// and only the starved run says the server was busy.
func TestStarvedHostKeepsFigures(t *testing.T) {
	newLab := func(pool *labs.Engines) labs.Lab {
		desk := labtest.NewFakeStore()
		return labtest.Must[*Lab](t)(New(Config{Engines: pool, Retriever: desk, Orders: desk, RunTag: "test"}))
	}
	labtest.CheckStarvedPresets(t, newLab, labtest.Inert(t, define), nil, 150*time.Millisecond, 0, 0, "Top-5", "No context")
}
