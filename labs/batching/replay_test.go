package batching

import (
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// replayRun plays the live run's workload for values v on the virtual
// clock and draws its final frame with the live run's recorder and view,
// so chart and stat code is tested deterministically. tweaks change the
// parsed settings first (a smaller KV cache, say).
func replayRun(t *testing.T, v labs.Values, tweaks ...func(*settings)) labs.Frame {
	t.Helper()
	s, err := parse(t, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, tw := range tweaks {
		tw(&s)
	}
	w := buildWorkload(s, arrivalPlan{n: s.requests, burst: s.burst, rate: s.rate, seed: liveSeed}, "t", 1)
	if s.longPrompt > 0 {
		if w, err = addLongPrompt(w, s.engine, s, 1, "t"); err != nil {
			t.Fatal(err)
		}
	}
	view, err := newLiveView(s, s.engine, w)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Simulate(s.engine, cloneReqs(w.reqs), engine.SimOptions{RecordTrace: true})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(w.reqs))
	for i, r := range w.reqs {
		ids[i] = r.ID
	}
	rec := newRecorder(0, view.bucket(), ids, w.labels)
	rec.replay(w.reqs, res)
	return view.frame(rec, true, view.doneStatus(rec))
}

func statValue(f labs.Frame, key string) (float64, bool) {
	for _, s := range f.Stats {
		if s.Key == key {
			return s.Value, true
		}
	}
	return 0, false
}

func chartByID(f labs.Frame, id string) *labs.Chart {
	for i := range f.Charts {
		if f.Charts[i].ID == id {
			return &f.Charts[i]
		}
	}
	return nil
}
