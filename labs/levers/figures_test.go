package levers

import "testing"

// TestFigures logs the table for each preset (go test -v -run Figures ./labs/levers/).
func TestFigures(t *testing.T) {
	for _, p := range presets {
		frames, _ := runLab(t, p.Values, DefaultWallLimit)
		last := frames[len(frames)-1]
		t.Logf("%s: %s", p.Name, last.Status)
		for _, r := range last.Tables[0].Rows {
			t.Logf("  %v", r)
		}
		for _, s := range last.Stats {
			t.Logf("  %s = %v %s (%s)", s.Key, s.Value, s.Unit, s.Note)
		}
	}
}
