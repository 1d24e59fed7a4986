package cancellation

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

func vals(stop, fail, answer float64, tier string, propagate bool) labs.Values {
	return labs.Values{knobStopAfter: stop, knobFailAfter: fail, knobAnswer: answer, knobTier: tier, knobPropagate: propagate}
}

// engineIdle checks that no request is left running or waiting on any
// tier's engine once the run is over: the request was aborted or ran out.
func engineIdle(t *testing.T) func(*labs.Engines) {
	return func(pool *labs.Engines) {
		for _, spec := range pipelinelab.TierSpecs() {
			le, err := pool.Get(spec.Profile)
			if err != nil {
				t.Fatal(err)
			}
			if st := le.Stats(); st.Running != 0 || st.Waiting != 0 {
				t.Errorf("%s engine: %d running, %d waiting after the run, want 0", spec.Name, st.Running, st.Waiting)
			}
		}
	}
}

func table(t *testing.T, f labs.Frame, prefix string) labs.Table {
	t.Helper()
	for _, tb := range f.Tables {
		if strings.HasPrefix(tb.Title, prefix) {
			return tb
		}
	}
	t.Fatalf("no table %q", prefix)
	return labs.Table{}
}

func TestCancellation(t *testing.T) {
	tests := []struct {
		name       string
		vals       labs.Values
		generated  [2]int // inclusive range
		delivered  int
		after      int // -1: no stat (nothing cut the stream)
		afterSlack int // the step in flight when the abort came may finish
		status     string
		errShown   bool
	}{
		{"leaving cancels generation", vals(20, 0, 400, "medium", true), [2]int{20, 22}, 20, 0, 2, pipeline.StatusCancelled, false},
		{"leaving a small model later", vals(50, 0, 200, "small", true), [2]int{50, 52}, 50, 0, 2, pipeline.StatusCancelled, false},
		{"without propagation the engine writes it all", vals(20, 0, 400, "medium", false), [2]int{400, 400}, 20, 380, 1, pipeline.StatusCancelled, false},
		{"an error mid-stream is shown and saved", vals(0, 60, 400, "medium", true), [2]int{60, 62}, 60, 0, 2, pipeline.StatusError, true},
		{"read to the end", vals(0, 0, 300, "large", true), [2]int{300, 300}, 300, -1, 0, pipeline.StatusComplete, false},
		{"stop after the end is reading to the end", vals(500, 0, 100, "medium", true), [2]int{100, 100}, 100, -1, 0, pipeline.StatusComplete, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frames := runLab(t, tc.vals, engineIdle(t))
			last := frames[len(frames)-1]
			gen := int(labtest.Stat(t, last, statGenerated))
			if gen < tc.generated[0] || gen > tc.generated[1] {
				t.Errorf("engine generated %d tokens, want %d..%d", gen, tc.generated[0], tc.generated[1])
			}
			if got := int(labtest.Stat(t, last, statDelivered)); got != tc.delivered {
				t.Errorf("delivered %d tokens, want %d", got, tc.delivered)
			}
			if tc.after < 0 {
				for _, s := range last.Stats {
					if s.Key == statAfter {
						t.Errorf("stat %s = %v for a stream nobody cut", statAfter, s.Value)
					}
				}
			} else if got := int(labtest.Stat(t, last, statAfter)); got < tc.after || got > tc.after+tc.afterSlack {
				t.Errorf("%d tokens generated after the stream ended, want %d..%d", got, tc.after, tc.after+tc.afterSlack)
			}
			if got := int(labtest.Stat(t, last, statSaved)); got != tc.delivered {
				t.Errorf("saved %d tokens, want the %d shown", got, tc.delivered)
			}
			wantCost := pipelinelab.Round1(float64(int(tc.vals[knobAnswer].(float64))-gen) * mustTier(t, tc.vals[knobTier].(string)).PriceOut)
			if got := labtest.Stat(t, last, statCostSaved); got != wantCost {
				t.Errorf("cost saved %v, want %v", got, wantCost)
			}

			// The store holds turn 1's answer as shown, with its status,
			// and turn 2's prompt carries it as history.
			conv := table(t, last, "The saved conversation")
			if len(conv.Rows) != 4 || conv.Rows[1][1] != "assistant" || conv.Rows[1][2] != tc.status {
				t.Fatalf("conversation %q, want 4 messages with turn 1's answer %s", conv.Rows, tc.status)
			}
			// The reader's text without the lab's stop and error notes.
			shown := strings.SplitN(strings.SplitN(last.Text.Body, " ‖", 2)[0], "\n\n⚠", 2)[0]
			if !strings.HasPrefix(shown, strings.TrimSuffix(conv.Rows[1][4], "…")) {
				t.Errorf("saved answer %q is not what the reader saw %q", conv.Rows[1][4], shown)
			}
			prompt := table(t, last, "Turn 2's prompt")
			var hist []string
			for _, r := range prompt.Rows {
				if r[0] == "history" && r[1] == "assistant" {
					hist = r
				}
			}
			if hist == nil || hist[3] != tc.status || hist[4] != conv.Rows[1][4] {
				t.Errorf("turn 2's history row %q, want turn 1's %s answer %q", hist, tc.status, conv.Rows[1][4])
			}

			hasMark := false
			for _, m := range last.Text.Marks {
				hasMark = hasMark || m.Label == markError
			}
			if tc.errShown != (hasMark && strings.Contains(last.Text.Body, "broke off")) {
				t.Errorf("error shown = %v in %q (marks %v), want %v", !tc.errShown, last.Text.Body, last.Text.Marks, tc.errShown)
			}
		})
	}
}

func mustTier(t *testing.T, name string) pipelinelab.TierSpec {
	t.Helper()
	s, err := pipelinelab.LookupTier(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The chart's generated line keeps rising after the disconnect mark only
// when the disconnect is not passed upstream.
func TestChartShowsTheWaste(t *testing.T) {
	for _, propagate := range []bool{true, false} {
		frames := runLab(t, vals(20, 0, 200, "medium", propagate), nil)
		c := frames[len(frames)-1].Charts[0]
		var stopAt float64
		for _, m := range c.Marks {
			if m.Label == markStopped {
				stopAt = m.At
			}
		}
		if stopAt == 0 {
			t.Fatalf("propagate=%v: no %q mark in %v", propagate, markStopped, c.Marks)
		}
		gen, del := c.Series[0], c.Series[1]
		if gen.Name != seriesGenerated || del.Name != seriesDelivered {
			t.Fatalf("series %q, %q", gen.Name, del.Name)
		}
		if got := del.Points[len(del.Points)-1].Y; got != 20 {
			t.Errorf("propagate=%v: delivered line ends at %v, want 20", propagate, got)
		}
		want := 22.0
		if !propagate {
			want = 200
		}
		if got := gen.Points[len(gen.Points)-1].Y; got > want || (!propagate && got != want) {
			t.Errorf("propagate=%v: generated line ends at %v, want %v", propagate, got, want)
		}
	}
}

// Leaving the lab page ends the run: Run returns ctx's error without a
// final frame, and the engine stops even when the lab's own "disconnect"
// is not propagated (that call still belongs to the run).
func TestRunCancelled(t *testing.T) {
	for _, propagate := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			pool := labs.NewEngines(labs.EnginesConfig{})
			defer pool.Close()
			l := mustNew(t, Config{Engines: pool})
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(time.Second, cancel)
			var frames []labs.Frame
			err := l.Run(ctx, vals(0, 0, 1000, "medium", propagate), func(f labs.Frame) { frames = append(frames, f) })
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run = %v, want context.Canceled", err)
			}
			if len(frames) < 2 || frames[len(frames)-1].Final {
				t.Errorf("%d frames, last final=%v: want live frames and no final one", len(frames), frames[len(frames)-1].Final)
			}
			synctest.Wait()
			time.Sleep(time.Second) // let the engine apply the abort
			engineIdle(t)(pool)
		})
	}
}

func TestKnobsAndPresets(t *testing.T) {
	labtest.CheckDeclaration(t, labtest.Inert(t, define),
		labtest.Entry{Slug: Slug, Lesson: "streaming-through-the-stack", PredictionStat: statAfter})
}

func TestBadSettingsEndInAMessage(t *testing.T) {
	labtest.ExpectRefusals(t, labtest.Inert(t, define), []labtest.Refusal{
		{Name: "unknown tier", Vals: labs.Values{knobTier: "huge"}, Want: "listed choices"},
		{Name: "negative stop", Vals: labs.Values{knobStopAfter: -5.0}, Want: "between 0 and 1,000"},
		{Name: "answer too long", Vals: labs.Values{knobAnswer: "100000"}, Want: "between 50 and 1,000"},
		{Name: "propagate not a bool", Vals: labs.Values{knobPropagate: "maybe"}, Want: "on or off"},
	})
}
