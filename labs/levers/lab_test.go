package levers

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// runLab runs the lab in a synctest bubble (virtual time for the live
// path), with wallLimit choosing the live or the virtual path.
func runLab(t *testing.T, vals labs.Values, wallLimit time.Duration) (frames []labs.Frame, rows []result) {
	t.Helper()
	frames = labtest.RunInBubble(t, onFakeDesk(t, wallLimit), vals, nil)
	last := frames[len(frames)-1]
	if !last.Final || last.Error != "" {
		t.Fatalf("last frame %+v", last)
	}
	return frames, parseRows(t, last)
}

// onFakeDesk builds the lab on pool with the fake support desk answering
// its lookups and wallLimit choosing the live or the virtual path.
func onFakeDesk(t *testing.T, wallLimit time.Duration) func(*labs.Engines) labs.Lab {
	return labtest.OnFakeDesk(t, func(cfg Config) (*Lab, error) { return newLab(cfg, wallLimit) })
}

// parseRows reads the measured rows back from the bar chart (exact values).
func parseRows(t *testing.T, f labs.Frame) []result {
	t.Helper()
	var out []result
	for _, b := range f.Charts[0].Bars {
		first := b.Segments[0].Value
		out = append(out, result{lever: lever{name: b.Label}, firstWord: first, total: first + b.Segments[1].Value})
	}
	if len(out) != len(levers) {
		t.Fatalf("%d rows, want %d", len(out), len(levers))
	}
	return out
}

// Each lever moves the numbers the lesson says it moves, on both paths.
func TestEachLeverImprovesItsMetric(t *testing.T) {
	for _, path := range []struct {
		name  string
		limit time.Duration
	}{{"wall clock", time.Hour}, {"virtual clock", time.Nanosecond}} {
		t.Run(path.name, func(t *testing.T) {
			frames, rows := runLab(t, labs.Values{}, path.limit)
			b := rows[0]
			get := func(name string) result {
				for _, r := range rows {
					if r.lever.name == name {
						return r
					}
				}
				t.Fatalf("no row %q", name)
				return result{}
			}
			near := func(a, b float64) bool { return math.Abs(a-b) <= 0.05*b }
			stream, shorter, smaller := get("Stream"), get("Shorter answer"), get("Smaller model")
			cache, par, fewer := get("Cache hit"), get("Parallel steps"), get("Fewer calls")
			checks := []struct {
				what string
				ok   bool
			}{
				{"stream: first word much lower", stream.firstWord < b.firstWord/3},
				{"stream: total unchanged", near(stream.total, b.total)},
				{"shorter: total much lower", shorter.total < 0.6*b.total},
				{"smaller: first word lower", smaller.firstWord < b.firstWord},
				{"smaller: total lower", smaller.total < 0.8*b.total},
				{"cache: total far lower", cache.total < 0.3*b.total},
				{"cache: first word lower", cache.firstWord < b.firstWord},
				{"parallel: first word 90 ms lower", math.Abs(b.firstWord-par.firstWord-90) < 2},
				{"fewer calls: first word lower", fewer.firstWord < b.firstWord},
				{"fewer calls: total lower", fewer.total < b.total},
			}
			for _, c := range checks {
				if !c.ok {
					t.Errorf("%s: rows %+v", c.what, rows)
				}
			}
			last := frames[len(frames)-1]
			if len(last.Tables[0].Rows) != len(levers) {
				t.Errorf("table has %d rows", len(last.Tables[0].Rows))
			}
			if got, want := labtest.Stat(t, last, statShorterSaves), b.total-shorter.total; math.Abs(got-want) > 0.1 {
				t.Errorf("shorter saves %v, rows say %v", got, want)
			}
			// Costs: the cache and the small tier are cheaper than the baseline.
			if row := last.Tables[0].Rows; !strings.Contains(row[4][3], "(−") {
				t.Errorf("cache cost %q, want it below the baseline's", row[4][3])
			}
		})
	}
}

// The virtual path times the same rows as the live pipeline (it is the
// same engine model and the same stage times composed the same way).
func TestVirtualMatchesLive(t *testing.T) {
	_, live := runLab(t, labs.Values{}, time.Hour)
	_, virt := runLab(t, labs.Values{}, time.Nanosecond)
	for i := range live {
		if math.Abs(live[i].firstWord-virt[i].firstWord) > 2 || math.Abs(live[i].total-virt[i].total) > 0.02*live[i].total+2 {
			t.Errorf("%s: live %.1f/%.1f ms, virtual %.1f/%.1f ms", live[i].lever.name,
				live[i].firstWord, live[i].total, virt[i].firstWord, virt[i].total)
		}
	}
}

// The table fills a row per frame on the wall clock.
func TestFramePerRow(t *testing.T) {
	frames, _ := runLab(t, labs.Values{knobAnswer: 100.0, knobShort: 50.0}, time.Hour)
	seen := map[int]bool{}
	for _, f := range frames {
		seen[len(f.Tables[0].Rows)] = true
	}
	for n := 0; n <= len(levers); n++ {
		if !seen[n] {
			t.Errorf("no frame with %d rows", n)
		}
	}
}

func TestValidation(t *testing.T) {
	l := labtest.Inert(t, define)
	for _, raw := range []labs.Values{{knobAnswer: 50.0}, {knobShort: 300.0}, {knobHelpers: 9.0}, {knobTier: "small"}, {knobQuestion: 3.0}} {
		labtest.ExpectNotRun(t, l, raw)
	}
	if errs := labtest.FieldErrors(l, labs.Values{knobShort: 300.0}); len(errs) != 1 || errs[0].Knob != knobShort {
		t.Errorf("check: %v", errs)
	}
}

func TestCancel(t *testing.T) {
	labtest.CancelMidRun(t, onFakeDesk(t, time.Hour), labs.Values{knobQuestion: "order", knobTier: "medium", knobAnswer: 300.0, knobShort: 100.0, knobHelpers: 1.0},
		func(f labs.Frame) bool { return len(f.Tables[0].Rows) == 2 })
}

// A row's cell gives its figure and its change against the baseline; a
// figure that prints like the baseline's is "same", and a small change
// still shows.
func TestWithDelta(t *testing.T) {
	secs := labs.TimeFormatFor(2000).Format
	for _, tc := range []struct {
		val, base float64
		want      string
	}{
		{1510, 2820, "1.51 s (−46%)"},
		{2810, 2820, "2.81 s (−0.4%)"},
		{2821, 2820, "2.82 s (same)"},
		{3000, 2820, "3.00 s (+6%)"},
		{500, 0, "0.50 s"},
	} {
		if got := withDelta(tc.val, tc.base, secs); got != tc.want {
			t.Errorf("withDelta(%v, %v) = %q, want %q", tc.val, tc.base, got, tc.want)
		}
	}
}
