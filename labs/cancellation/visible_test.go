package cancellation

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestNoInternalIDsShown: the run id in the prompt's session line is
// plumbing for the shared engine's cache; no frame may show it. The final
// frames must also keep the house rules for units, and every frame groups
// its thousands.
func TestNoInternalIDsShown(t *testing.T) {
	l := labtest.Inert(t, define)
	for _, p := range l.Presets() {
		frames := runLab(t, p.Values, nil)
		labtest.CheckUnits(t, p.Name, frames[len(frames)-1])
		for _, f := range frames {
			labtest.CheckGrouping(t, p.Name, f) // mid-run statuses too: "Streaming: 1,000 tokens delivered"
			for _, s := range labtest.VisibleText(f) {
				if strings.Contains(s, "Session ") || strings.Contains(s, Slug+"-") {
					t.Errorf("%s: a frame shows an internal id: %q", p.Name, s)
				}
			}
		}
	}
}
