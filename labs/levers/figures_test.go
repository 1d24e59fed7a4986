package levers

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestFigures logs the table for each preset (go test -v -run Figures
// ./labs/levers/) and checks what the lesson reads from it: the best lever
// starts sooner and ends sooner than the baseline, and a shorter answer
// saves time.
func TestFigures(t *testing.T) {
	for _, p := range labtest.Inert(t, define).Presets() {
		frames, _ := runLab(t, p.Values, DefaultWallLimit)
		last := frames[len(frames)-1]
		if last.Error != "" || len(last.Tables) == 0 || len(last.Tables[0].Rows) < 2 {
			t.Fatalf("%s: error %q, tables %+v", p.Name, last.Error, last.Tables)
		}
		t.Logf("%s: %s", p.Name, last.Status)
		for _, r := range last.Tables[0].Rows {
			t.Logf("  %v", r)
		}
		for _, s := range last.Stats {
			t.Logf("  %s = %v %s (%s)", s.Key, s.Value, s.Unit, s.Note)
		}
		labtest.CheckUnits(t, p.Name, last)
		st := labtest.StatMap(t, last)
		if !(st[statBestFirst] < st[statBaseFirst] && st[statBestTotal] < st[statBaseTotal] && st[statShorterSaves] > 0) {
			t.Errorf("%s: stats %v; want the best lever ahead of the baseline and a saving from the shorter answer", p.Name, st)
		}
	}
}
