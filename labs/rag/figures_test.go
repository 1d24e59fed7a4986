package rag

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestFigures runs each preset, logs its figures (go test -v -run Figures
// ./labs/rag/) and checks the lesson's point in them: more context makes a
// longer prompt and a later first token.
func TestFigures(t *testing.T) {
	byName := map[string]map[string]float64{}
	for _, p := range labtest.Inert(t, define).Presets() {
		fs := runLab(t, p.Values)
		last := fs[len(fs)-1]
		if last.Error != "" {
			t.Fatalf("%s: %s", p.Name, last.Error)
		}
		t.Logf("%s: %s", p.Name, last.Status)
		for _, s := range last.Stats {
			t.Logf("  %s = %v %s", s.Key, s.Value, s.Unit)
		}
		for _, s := range last.Charts[1].Series {
			t.Logf("  %s: %v", s.Name, s.Points)
		}
		t.Logf("  answer: %s", last.Text.Body)
		labtest.CheckUnits(t, p.Name, last)
		byName[p.Name] = labtest.StatMap(t, last)
	}
	order := []string{"No context", "Top-5", "Top-20 + long history"}
	for i := 1; i < len(order); i++ {
		a, b := byName[order[i-1]], byName[order[i]]
		if !(a[statPromptTokens] < b[statPromptTokens] && a[statTTFT] < b[statTTFT]) {
			t.Errorf("%s (%v tokens, %v ms) is not shorter and faster than %s (%v tokens, %v ms)",
				order[i-1], a[statPromptTokens], a[statTTFT], order[i], b[statPromptTokens], b[statTTFT])
		}
	}
}
