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
	for name, last := range labtest.PresetFinals(t, labtest.Inert(t, define), runLab) {
		labtest.CheckUnits(t, name, last)
		byName[name] = labtest.StatMap(t, last)
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
