package budget

import "testing"

// TestFigures logs each preset's headline figures (go test -v -run
// Figures ./labs/budget/) for the lesson and the report.
func TestFigures(t *testing.T) {
	for _, p := range presets {
		fs := runLab(t, p.Values)
		last := fs[len(fs)-1]
		t.Logf("%s: %s", p.Name, last.Status)
		for _, s := range last.Stats {
			t.Logf("  %s = %v %s (%s)", s.Key, s.Value, s.Unit, s.Note)
		}
		for _, r := range last.Tables[0].Rows {
			t.Logf("  %v", r)
		}
	}
}
