package timeouts

import (
	"testing"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestPresetFigures logs every preset's final frame on the virtual clock
// (go test -run PresetFigures -v ./labs/timeouts/), for the report, and
// checks the figures each preset's note promises.
func TestPresetFigures(t *testing.T) {
	type want struct {
		p95Min, p95Max      float64 // first word p95, ms
		fallback            float64 // % answered by the backup
		timeouts, errs, cut float64
	}
	wants := map[string]want{
		"Provider slowdown, no timeout":             {8000, 9000, 0, 0, 0, 0},
		"5 s first-token timeout with fallback":     {5000, 6000, 30, 0, 0, 0},
		"Web-service timeout (1 s)":                 {0, 1000, 0, 20, 0, 14},
		"Shared 20 s deadline with a retry at 18 s": {18000, 19000, 30, 6, 0, 0},
	}
	for name, last := range labtest.PresetFinals(t, labtest.Inert(t, define), runLab) {
		w, ok := wants[name]
		if !ok {
			t.Errorf("preset %q has no expected figures", name)
			continue
		}
		st := labtest.StatMap(t, last)
		if p95 := st[statFirstWordP95]; p95 < w.p95Min || p95 > w.p95Max {
			t.Errorf("%s: first word p95 %v ms, want %v..%v", name, p95, w.p95Min, w.p95Max)
		}
		if st[statFallback] != w.fallback || st[statTimeouts] != w.timeouts || st[statErrors] != w.errs || st[statCut] != w.cut {
			t.Errorf("%s: backup %v%%, timeouts %v, errors %v, healthy cut %v; want %v%%, %v, %v, %v", name,
				st[statFallback], st[statTimeouts], st[statErrors], st[statCut], w.fallback, w.timeouts, w.errs, w.cut)
		}
	}
}
