package moderation

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestPresetUnits: every preset's final frame keeps the house rules for
// units (one time unit per table, "1 token", dollars as "$").
func TestPresetUnits(t *testing.T) {
	for _, p := range labtest.Inert(t, define).Presets() {
		frames, _ := runLab(t, p.Values)
		labtest.CheckUnits(t, p.Name, frames[len(frames)-1])
	}
}
