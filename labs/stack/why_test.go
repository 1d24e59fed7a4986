package stack

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// Every preset's last word, bursts and longest wait carry their formula,
// and each comes to the figure exactly (0.5%: the parts are the run's own
// token times and the proxy's releases, so they add up). Each names what
// dominated: the proxy where it held the answer, the GPU where nothing did.
func TestWhyOfLastWordBurstsAndLongestWait(t *testing.T) {
	wants := map[string]struct{ bursts, longest string }{
		"Works on my laptop":                        {"each token is a burst", "Nothing held the tokens"},
		"In production behind a buffering proxy":    {"the whole answer at once", "the answer was complete"},
		"A smaller proxy buffer":                    {"full 4,096-byte buffers", "its 4,096-byte buffer filled"},
		"A proxy that flushes on a timer":           {"flush-timer ticks (every 500 ms)", "its 500 ms flush timer fired"},
		"Fixed: buffering off for the stream route": {"each token is a burst", "Nothing held the tokens"},
		"Fixed, with the other provider":            {"each token is a burst", "Nothing held the tokens"},
	}
	finals := labtest.PresetFinals(t, labtest.Inert(t, define), runOnVirtualTime)
	for name, f := range finals {
		t.Run(name, func(t *testing.T) {
			for _, key := range []string{statLastWord, statBursts, statLongest} {
				labtest.CheckFormula(t, labtest.StatOf(t, f, key), 0.005)
			}
			want := wants[name]
			if why := labtest.StatOf(t, f, statBursts).Why; !strings.Contains(why, want.bursts) {
				t.Errorf("bursts: %q does not say %q", why, want.bursts)
			}
			if why := labtest.StatOf(t, f, statLongest).Why; !strings.Contains(why, want.longest) {
				t.Errorf("longest wait: %q does not say %q", why, want.longest)
			}
		})
	}
	if len(finals) != len(wants) {
		t.Errorf("%d presets ran, %d expected", len(finals), len(wants))
	}
}
