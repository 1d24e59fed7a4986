package cancellation

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestNoInternalIDsShown: the run id in the prompt's session line is
// plumbing for the shared engine's cache; no frame may show it.
func TestNoInternalIDsShown(t *testing.T) {
	l := labtest.Inert(t, define)
	for _, p := range l.Presets() {
		for _, f := range runLab(t, p.Values, nil) {
			for _, s := range labtest.VisibleText(f) {
				if strings.Contains(s, "Session ") || strings.Contains(s, Slug+"-") {
					t.Errorf("%s: a frame shows an internal id: %q", p.Name, s)
				}
			}
		}
	}
}
