package levers

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// TestFigures logs the table for each preset (go test -v -run Figures
// ./labs/levers/) and checks what the lesson reads from it: the best lever
// starts sooner and ends sooner than the baseline, and a shorter answer
// saves time.
func TestFigures(t *testing.T) {
	run := func(t *testing.T, vals labs.Values) []labs.Frame {
		frames, _ := runLab(t, vals, DefaultWallLimit)
		return frames
	}
	for name, last := range labtest.PresetFinals(t, labtest.Inert(t, define), run) {
		if len(last.Tables) == 0 || len(last.Tables[0].Rows) < 2 {
			t.Fatalf("%s: tables %+v", name, last.Tables)
		}
		labtest.CheckUnits(t, name, last)
		st := labtest.StatMap(t, last)
		if !(st[statBestFirst] < st[statBaseFirst] && st[statBestTotal] < st[statBaseTotal] && st[statShorterSaves] > 0) {
			t.Errorf("%s: stats %v; want the best lever ahead of the baseline and a saving from the shorter answer", name, st)
		}
	}
}
