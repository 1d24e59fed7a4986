package labtest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// RunPresetsOnWallClock runs each preset of the lab newLab builds (on a
// fresh engine pool) once on the wall clock, as the web app does, and logs
// each one's final frame with the number of frames emitted and how long
// the run took. It fails t on a run that errs, and skips t unless
// LATENCYLAB_FIGURES is set: a preset takes real seconds, so these runs are
// for reading figures, not for every test run.
func RunPresetsOnWallClock(t *testing.T, newLab func(*labs.Engines) Lab) {
	t.Helper()
	if os.Getenv("LATENCYLAB_FIGURES") == "" {
		t.Skip("set LATENCYLAB_FIGURES=1 to run the presets on the real clock")
	}
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	l := newLab(pool)
	for _, p := range l.Presets() {
		var frames int
		var final labs.Frame
		start := time.Now()
		err := l.Run(context.Background(), p.Values, func(f labs.Frame) { frames++; final = f })
		if err != nil || final.Error != "" {
			t.Fatalf("%s: %v %s", p.Name, err, final.Error)
		}
		t.Logf("%s: %d frames in %.1f s", p.Name, frames, time.Since(start).Seconds())
		LogFrame(t, final)
	}
}

// PresetFinals runs every preset of l with run (the lab's own way to run
// it, usually on virtual time) and returns each one's final frame by
// preset name, logged for the lesson and the report (go test -v). It
// stops t when a run ends in an error message.
func PresetFinals(t *testing.T, l labs.Lab, run func(*testing.T, labs.Values) []labs.Frame) map[string]labs.Frame {
	t.Helper()
	out := map[string]labs.Frame{}
	for _, p := range l.Presets() {
		fs := run(t, p.Values)
		last := fs[len(fs)-1]
		if last.Error != "" {
			t.Fatalf("%s: %s", p.Name, last.Error)
		}
		t.Logf("== %s (%d frames)", p.Name, len(fs))
		LogFrame(t, last)
		out[p.Name] = last
	}
	return out
}

// LogFrame logs what a frame shows a learner: its status, every stat with
// its note, the reader's text, every chart's series (a long one by its
// length) and every table.
func LogFrame(t testing.TB, f labs.Frame) {
	t.Helper()
	t.Logf("  %s", f.Status)
	for _, s := range f.Stats {
		t.Logf("  %-24s %10.2f %s  (%s)", s.Key, s.Value, s.Unit, s.Note)
	}
	if f.Text != nil {
		t.Logf("  text: %.300q", f.Text.Body)
		t.Logf("  marks: %v", f.Text.Marks)
	}
	for _, c := range f.Charts {
		for _, s := range c.Series {
			if len(s.Points) > 12 { // a drawn curve, not measurements
				t.Logf("  chart %s, %s: %d points", c.ID, s.Name, len(s.Points))
				continue
			}
			t.Logf("  chart %s, %s: %v", c.ID, s.Name, s.Points)
		}
	}
	for _, tb := range f.Tables {
		t.Logf("  %s\n    %v", tb.Title, tb.Columns)
		for _, r := range tb.Rows {
			t.Logf("    %q", r)
		}
	}
}
