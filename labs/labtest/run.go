package labtest

import (
	"context"
	"math"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/labs"
)

// Lab is a lab as its tests drive it: a labs.Lab that also runs raw
// values, ending settings a learner could fix with a NotRun frame, as
// every lab built with labs.Define does.
type Lab interface {
	labs.Lab
	Run(ctx context.Context, raw map[string]any, emit func(labs.Frame)) error
}

// RunInBubble runs a lab once inside a synctest bubble, where the live
// engines' pacing and the pipeline's waits are on virtual time, so every
// wall-clock figure is exact and the run takes no real time. newLab builds
// the lab on a fresh engine pool; vals must decode without field errors. after, when set, runs inside the bubble once the run has returned,
// with the pool, to look at the engines. It fails t unless the run ends in
// a final frame, and returns every frame.
func RunInBubble(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, after func(*labs.Engines)) []labs.Frame {
	t.Helper()
	var frames []labs.Frame
	synctest.Test(t, func(t *testing.T) {
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		l := newLab(pool)
		r, errs := l.Decode(vals)
		if len(errs) > 0 {
			t.Fatalf("decode: %v", errs)
		}
		if err := r.Start(t.Context(), func(f labs.Frame) { frames = append(frames, f) }); err != nil {
			t.Fatalf("run: %v", err)
		}
		if after != nil {
			after(pool)
		}
	})
	if len(frames) == 0 || !frames[len(frames)-1].Final {
		t.Fatalf("no final frame in %d frames", len(frames))
	}
	return frames
}

// Stat returns the value of f's stat key, failing t when f has none.
func Stat(t testing.TB, f labs.Frame, key string) float64 {
	t.Helper()
	return StatOf(t, f, key).Value
}

// StatOf returns f's stat key whole (label, unit, note), failing t when f
// has none.
func StatOf(t testing.TB, f labs.Frame, key string) labs.Stat {
	t.Helper()
	return find(t, f.Stats, func(s labs.Stat) bool { return s.Key == key }, "no stat %q in %+v", key, f.Stats)
}

// Chart returns f's chart id, failing t when f has none.
func Chart(t testing.TB, f labs.Frame, id string) labs.Chart {
	t.Helper()
	return find(t, f.Charts, func(c labs.Chart) bool { return c.ID == id }, "no chart %q", id)
}

// find returns the first of items that match accepts, failing t with the
// message format and args when none does.
func find[T any](t testing.TB, items []T, match func(T) bool, format string, args ...any) T {
	t.Helper()
	i := slices.IndexFunc(items, match)
	if i < 0 {
		t.Fatalf(format, args...)
		var none T
		return none
	}
	return items[i]
}

// StatMap returns f's stats by key, failing t (without stopping) when a key
// appears twice.
func StatMap(t testing.TB, f labs.Frame) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, s := range f.Stats {
		if _, dup := out[s.Key]; dup {
			t.Errorf("stat %q appears twice", s.Key)
		}
		out[s.Key] = s.Value
	}
	return out
}

// Near reports whether a equals b to within a millionth (of b, or
// absolutely when |b| < 1): equal but for float rounding.
func Near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// ExpectNotRun runs l with raw (unvalidated) values that a learner could
// send and fails t unless Run returns no error and emits exactly one
// frame, final and carrying an error message: bad settings are a message,
// not a failure. It returns that message ("" when there was none) for the
// caller to check its wording.
func ExpectNotRun(t testing.TB, l Lab, raw labs.Values) string {
	t.Helper()
	var frames []labs.Frame
	if err := l.Run(context.Background(), raw, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
		t.Errorf("%v: error %v, want a frame", raw, err)
	}
	if len(frames) != 1 || !frames[0].Final || frames[0].Error == "" {
		t.Errorf("%v: frames %+v, want one final frame with an error", raw, frames)
		return ""
	}
	return frames[0].Error
}

// Defaults returns every knob's default value, as the page's signals start.
func Defaults(l labs.Lab) labs.Values {
	v := labs.Values{}
	for _, k := range l.Knobs() {
		v[k.Name] = k.Default
	}
	return v
}

// FieldErrors returns what l.Decode refuses in raw: nil when it would run.
func FieldErrors(l labs.Lab, raw labs.Values) []labs.FieldError {
	_, errs := l.Decode(raw)
	return errs
}

// Inert returns define's lab with a run that does nothing, for tests of
// knobs, presets and decoding that need no engine. It fails t when the
// declaration is refused.
func Inert[P labs.Params](t testing.TB, define func(func(context.Context, P, func(labs.Frame)) error) (*labs.Kit[P], error)) *labs.Kit[P] {
	t.Helper()
	k, err := define(func(context.Context, P, func(labs.Frame)) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Must returns a constructor's lab, failing t on its error:
// labtest.Must[*Lab](t)(New(cfg)).
func Must[L any](t testing.TB) func(L, error) L {
	return func(l L, err error) L {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
}

// Parse decodes raw with define's lab, as a run would, and derives the
// run's settings with derive (the lab's params.settings).
func Parse[P labs.Params, S any](t testing.TB, define func(func(context.Context, P, func(labs.Frame)) error) (*labs.Kit[P], error),
	raw labs.Values, derive func(P) (S, error)) (S, error) {
	t.Helper()
	p, err := Inert(t, define).Params(raw)
	if err != nil {
		var zero S
		return zero, err
	}
	return derive(p)
}

// CancelMidRun runs the lab newLab builds (on a fresh engine pool) inside
// a synctest bubble and cancels the run at the first frame for which at
// holds. It fails t unless the run then returns an error (the context's)
// and never emits a final frame: a learner who leaves stops the run.
func CancelMidRun(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, at func(labs.Frame) bool) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		r, errs := newLab(pool).Decode(vals)
		if len(errs) > 0 {
			t.Fatalf("decode: %v", errs)
		}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		final := false
		err := r.Start(ctx, func(f labs.Frame) {
			final = final || f.Final
			if at(f) {
				cancel()
			}
		})
		if err == nil || final {
			t.Errorf("err %v, final frame %v; want the context's error and no final frame", err, final)
		}
	})
}
