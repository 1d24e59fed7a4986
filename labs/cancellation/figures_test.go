package cancellation

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestPresetFigures logs every preset's final frame, measured on the
// virtual clock (go test -run PresetFigures -v ./labs/cancellation/), and
// checks the figures each preset's note promises.
func TestPresetFigures(t *testing.T) {
	want := map[string]struct{ delivered, generated int }{
		"Leave after 20 tokens":                  {20, -1},
		"Leave without propagating cancellation": {20, 400},
		"Error mid-stream":                       {60, -1},
		"Read to the end":                        {400, 400},
	}
	run := func(t *testing.T, vals labs.Values) []labs.Frame { return runLab(t, vals, nil) }
	for name, last := range labtest.PresetFinals(t, labtest.Inert(t, define), run) {
		w, ok := want[name]
		if !ok {
			t.Errorf("preset %q has no expected figures", name)
			continue
		}
		if got := int(labtest.Stat(t, last, statDelivered)); got != w.delivered {
			t.Errorf("%s: delivered %d tokens, want %d", name, got, w.delivered)
		}
		gen := int(labtest.Stat(t, last, statGenerated))
		if w.generated >= 0 && gen != w.generated {
			t.Errorf("%s: generated %d tokens, want %d", name, gen, w.generated)
		}
		if w.generated < 0 && gen >= 400 {
			t.Errorf("%s: the engine wrote all %d tokens; the stop did not reach it", name, gen)
		}
	}
}
