package moderation

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs/labtest"
)

// A starved host (every wait of the checks, the network and the engine's
// runner ends late) does not move a figure of any preset: tokens are
// timed by the GPU's stamps plus the modelled network, each check by its
// modelled latency, and the window's releases follow from those. At
// 150 ms late the note says the server was busy; 30 ms late may stay under
// its threshold on a long run. The hosted preset keeps its other
// tenants: the provider's engine adds their requests on its own modelled
// clock and takes the learner's at the moment it was sent on the modelled
// timeline, so they meet the same traffic. The moments the comparison's five
// requests reach their shared engine and the moment its aborting policy
// leaves the batch: which step each joins or leaves is the host's, so the
// comparison's figures may move by a step or two (8 ms steps on an 800 ms
// run: within 2%).
func TestStarvedHostKeepsFigures(t *testing.T) {
	l := labtest.Inert(t, define)
	names := []string{""}
	for _, p := range l.Presets() {
		names = append(names, p.Name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			vals := labtest.Values(nil)
			if name != "" {
				vals = labtest.PresetWith(t, l, name)(nil)
			}
			if vals[knobPolicy] == policyCompare {
				labtest.CheckStarvedHostWithin(t, onPool, vals, 150*time.Millisecond, 0.02, 0)
				return
			}
			labtest.CheckStarvedHostWithin(t, onPool, vals, 30*time.Millisecond, 1e-9, 0)
			calm, starved := labtest.CheckStarvedHost(t, onPool, vals, 150*time.Millisecond)
			t.Logf("first word %v ms calm, %v ms starved; %s", labtest.Stat(t, calm, statFirstWord), labtest.Stat(t, starved, statFirstWord), starved.Status)
		})
	}
}
