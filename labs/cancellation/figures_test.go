package cancellation

import (
	"testing"

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
	l := labtest.Inert(t, define)
	for _, p := range l.Presets() {
		frames := runLab(t, p.Values, nil)
		last := frames[len(frames)-1]
		t.Logf("== %s (%d frames)\n%s", p.Name, len(frames), last.Status)
		for _, s := range last.Stats {
			t.Logf("  %-24s %8.1f %s  (%s)", s.Key, s.Value, s.Unit, s.Note)
		}
		t.Logf("  text: %.200q", last.Text.Body)
		t.Logf("  marks: %v", last.Text.Marks)
		for _, tb := range last.Tables {
			t.Logf("  %s\n    %v", tb.Title, tb.Columns)
			for _, r := range tb.Rows {
				t.Logf("    %q", r)
			}
		}
		w, ok := want[p.Name]
		if !ok {
			t.Errorf("preset %q has no expected figures", p.Name)
			continue
		}
		if got := int(labtest.Stat(t, last, statDelivered)); got != w.delivered {
			t.Errorf("%s: delivered %d tokens, want %d", p.Name, got, w.delivered)
		}
		gen := int(labtest.Stat(t, last, statGenerated))
		if w.generated >= 0 && gen != w.generated {
			t.Errorf("%s: generated %d tokens, want %d", p.Name, gen, w.generated)
		}
		if w.generated < 0 && gen >= 400 {
			t.Errorf("%s: the engine wrote all %d tokens; the stop did not reach it", p.Name, gen)
		}
	}
}
