package budget

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestFigures logs each preset's headline figures (go test -v -run
// Figures ./labs/budget/) for the lesson and the report, and checks the
// lesson's points in them: lookups one after another take longer than
// together, and a heavy tail shows at p99 while p50 stays put.
func TestFigures(t *testing.T) {
	stats := map[string]map[string]float64{}
	for name, last := range labtest.PresetFinals(t, labtest.Inert(t, define), runLab) {
		stats[name] = labtest.StatMap(t, last)
	}
	par, seq, tail := stats["Seed example: parallel lookups"], stats["Sequential lookups"], stats["Heavy tail: one in twenty slow"]
	if !(seq[statLookups] > par[statLookups] && seq[statP95] > par[statP95]) {
		t.Errorf("sequential lookups %v ms (p95 %v) not slower than parallel %v ms (p95 %v)",
			seq[statLookups], seq[statP95], par[statLookups], par[statP95])
	}
	if !(tail[statP99] > 2*tail[statP50]) || !(tail[statP99] > par[statP99]) {
		t.Errorf("heavy tail: p99 %v ms against p50 %v ms and the parallel preset's p99 %v ms; want a tail", tail[statP99], tail[statP50], par[statP99])
	}
}
