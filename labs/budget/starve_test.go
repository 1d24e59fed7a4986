package budget

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// A reader that takes its time over every frame (a slow connection, a
// starved host) must not move the figures: the stages' waits and the
// engine's token stamps are the pipeline's, not the reader's. The run is
// the lesson's default and the hosted preset.
func TestStarvedReaderKeepsFigures(t *testing.T) {
	newLab := func(pool *labs.Engines) labs.Lab {
		desk := labtest.NewFakeStore()
		return labtest.Must[*Lab](t)(New(Config{Engines: pool, Retriever: desk, Orders: desk, RunTag: "test"}))
	}
	for _, name := range []string{"Seed example: parallel lookups", hostedPreset} {
		t.Run(name, func(t *testing.T) {
			vals := labtest.PresetWith(t, labtest.Inert(t, define), name)(labs.Values{knobRequests: 20.0})
			calm := labtest.RunBusy(t, newLab, vals, labtest.Busy{})
			starved := labtest.RunBusy(t, newLab, vals, labtest.Busy{Consume: 250 * time.Millisecond})
			labtest.CheckGPUFigures(t, calm, starved)
		})
	}
}
