package timeouts

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"

	"github.com/latencylab/latencylab/labs/labtest"
)

// TestPresetFigures logs every preset's final frame on the virtual clock
// (go test -run PresetFigures -v ./labs/timeouts/), for the report, and
// checks the figures each preset's note promises.
func TestPresetFigures(t *testing.T) {
	type want struct {
		p95Min, p95Max      float64 // first word p95, ms
		fallback            float64 // % sent to the backup
		timeouts, errs, cut float64
	}
	wants := map[string]want{
		"Provider slowdown, no timeout":             {8000, 9000, 0, 0, 0, 0},
		"5 s first-token timeout with fallback":     {5000, 6000, 30, 0, 0, 0},
		"Web-service timeout (1 s)":                 {0, 1000, 0, 20, 0, 14},
		"Shared 20 s deadline with a retry at 18 s": {18000, 19000, 30, 6, 0, 0},
		// The 5 s timeout plus the budget lesson's 815 ms hosted first
		// word, within 15%, and still under 6 s as the note says.
		hostedPreset: {0.85 * 5815, 6000, 30, 0, 0, 0},
	}
	l := labtest.Inert(t, define)
	presets := map[string]labs.Preset{}
	for _, p := range l.Presets() {
		presets[p.Name] = p
	}
	for name, last := range labtest.PresetFinals(t, l, runLab) {
		w, ok := wants[name]
		if !ok {
			t.Errorf("preset %q has no expected figures", name)
			continue
		}
		checkTables(t, presets[name], last)
		labtest.CheckUnits(t, name, last)
		st := labtest.StatMap(t, last)
		if p99, ok := st[statFirstWordP99]; st[statFirstWordP95] > 0 && (!ok || p99 < st[statFirstWordP95]) {
			t.Errorf("%s: p99 first word %v (shown: %v), want it shown and at least the p95 %v", name, p99, ok, st[statFirstWordP95])
		}
		if p95 := st[statFirstWordP95]; p95 < w.p95Min || p95 > w.p95Max {
			t.Errorf("%s: first word p95 %v ms, want %v..%v", name, p95, w.p95Min, w.p95Max)
		}
		if st[statFallback] != w.fallback || st[statTimeouts] != w.timeouts || st[statErrors] != w.errs || st[statCut] != w.cut {
			t.Errorf("%s: backup %v%%, timeouts %v, errors %v, healthy cut %v; want %v%%, %v, %v, %v", name,
				st[statFallback], st[statTimeouts], st[statErrors], st[statCut], w.fallback, w.timeouts, w.errs, w.cut)
		}
	}
}

// checkTables holds the tables to what their labels and the preset's note
// promise: the "No timeout" row applies no limit at all, so it has no
// timeouts, and a note that says how long a retry had left gives the
// figure the table shows.
func checkTables(t *testing.T, p labs.Preset, last labs.Frame) {
	t.Helper()
	for _, tb := range last.Tables {
		col := map[string]int{}
		for i, c := range tb.Columns {
			col[c] = i
		}
		for _, r := range tb.Rows {
			if i, ok := col["Timeouts"]; ok && strings.HasPrefix(r[0], "No timeout") && r[i] != "0" {
				t.Errorf("%s: the No timeout row shows %s timeouts: %v", p.Name, r[i], r)
			}
			if i, ok := col["Time left for it"]; ok && strings.Contains(p.Note, " s left") && strings.HasSuffix(r[i], " s") {
				left, err := strconv.ParseFloat(strings.TrimSuffix(r[i], " s"), 64)
				if err != nil {
					t.Fatalf("%s: time left %q: %v", p.Name, r[i], err)
				}
				if want := fmt.Sprintf("the %.1f s left", left); !strings.Contains(p.Note, want) {
					t.Errorf("%s: a retry had %s left; the note should say %q: %s", p.Name, r[i], want, p.Note)
				}
			}
		}
	}
}
