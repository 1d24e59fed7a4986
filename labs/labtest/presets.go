package labtest

import (
	"maps"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// PresetWith finds lab l's preset called name (stopping t when there is
// none) and returns a func giving its values with changes laid over them:
// the preset as a learner applies it, then a knob or two moved, as when
// switching one cause off to see its share.
func PresetWith(t testing.TB, l labs.Lab, name string) func(changes labs.Values) labs.Values {
	t.Helper()
	for _, p := range l.Presets() {
		if p.Name == name {
			return func(changes labs.Values) labs.Values {
				vals := maps.Clone(p.Values)
				maps.Copy(vals, changes)
				return vals
			}
		}
	}
	t.Fatalf("no preset %q", name)
	return nil
}

// FinalFrame runs the lab newLab builds once with vals in a synctest
// bubble (see RunInBubble) and returns its final frame, stopping t when
// the run ends in an error message.
func FinalFrame(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values) labs.Frame {
	t.Helper()
	frames := RunInBubble(t, newLab, vals, nil)
	last := frames[len(frames)-1]
	if last.Error != "" {
		t.Fatalf("run: %s", last.Error)
	}
	return last
}
