package rag

import "testing"

// TestFigures logs each preset's figures (go test -v -run Figures ./labs/rag/).
func TestFigures(t *testing.T) {
	for _, p := range presets {
		fs := runLab(t, p.Values)
		last := fs[len(fs)-1]
		t.Logf("%s: %s", p.Name, last.Status)
		for _, s := range last.Stats {
			t.Logf("  %s = %v %s", s.Key, s.Value, s.Unit)
		}
		for _, s := range last.Charts[1].Series {
			t.Logf("  %s: %v", s.Name, s.Points)
		}
		t.Logf("  answer: %s", last.Text.Body)
	}
}
