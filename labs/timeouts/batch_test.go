package timeouts

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/labs/labtest"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// base is the default preset's batch: 20 requests, 30% of them slowed by
// 8 s before the first token on the medium tier, small as the backup.
func base() settings {
	return settings{fault: faultSlow, slowBy: 8 * time.Second, sharePct: 30, backup: pipelinelab.TierSmall,
		requests: 20, answer: 200}
}

// runBatch runs one variant of s in a synctest bubble and returns its
// records.
func runBatch(t *testing.T, s settings, vr variant) []record {
	t.Helper()
	var rs []record
	synctest.Test(t, func(t *testing.T) {
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		tiers, err := pipelinelab.Tiers(pool)
		if err != nil {
			t.Fatal(err)
		}
		run := pipelinelab.Run{Config: Config{Engines: pool, Retriever: labtest.NewFakeStore()}, Tiers: tiers}
		h, f, err := pipelines(s, vr, "test", run)
		if err != nil {
			t.Fatal(err)
		}
		b := &batch{s: s, v: vr}
		if err := b.run(t.Context(), h, f, "test"); err != nil {
			t.Fatal(err)
		}
		rs, _ = b.snapshot()
	})
	for i, r := range rs {
		if r.res == nil {
			t.Fatalf("request %d has no result", i)
		}
	}
	return rs
}

func TestTimeoutSettings(t *testing.T) {
	stall := base()
	stall.fault = faultStall
	refuse := base()
	refuse.fault, refuse.backup = faultRefuse, ""
	short := base()
	short.answer = 30
	tests := []struct {
		name  string
		s     settings
		vr    variant
		check func(t *testing.T, r record, res *pipeline.Result)
	}{
		{"first-token timeout falls back within its limit", base(), variant{ftt: 5 * time.Second},
			func(t *testing.T, r record, res *pipeline.Result) {
				if !r.slowed {
					if res.Tier != primary || len(res.Attempts) != 1 {
						t.Errorf("healthy call answered by %s after %d attempts", res.Tier, len(res.Attempts))
					}
					return
				}
				if res.Tier != pipelinelab.TierSmall || res.Status != pipeline.StatusComplete {
					t.Fatalf("slowed call: tier %q status %s, want complete on small", res.Tier, res.Status)
				}
				first := res.Attempts[0]
				if first.Outcome != pipeline.OutcomeFirstTokenTimeout || first.End-first.Start != 5*time.Second {
					t.Errorf("primary attempt %s after %v, want a first-token timeout at exactly 5s", first.Outcome, first.End-first.Start)
				}
				// The user waits the timeout plus the stages before the model and the backup's TTFT.
				if res.Summary.FirstWord < 5*time.Second || res.Summary.FirstWord > 6*time.Second {
					t.Errorf("first word at %v, want within a second after the 5s timeout", res.Summary.FirstWord)
				}
			}},
		{"no timeout waits for the slow provider", base(), variant{},
			func(t *testing.T, r record, res *pipeline.Result) {
				if res.Tier != primary || res.Status != pipeline.StatusComplete {
					t.Errorf("tier %q status %s, want every call answered by the primary", res.Tier, res.Status)
				}
				if r.slowed && res.Summary.FirstWord < 8*time.Second {
					t.Errorf("slowed call's first word at %v, before the 8s slowdown ended", res.Summary.FirstWord)
				}
			}},
		{"1 s timeout cuts healthy answers that take longer to write", base(), variant{overall: time.Second},
			func(t *testing.T, r record, res *pipeline.Result) {
				if res.Status != pipeline.StatusTimeout {
					t.Fatalf("status %s, want timeout", res.Status)
				}
				if !r.slowed && (res.Text == "" || res.Usage.CompletionTokens >= 200) {
					t.Errorf("healthy call cut with %d tokens shown, want a partial answer", res.Usage.CompletionTokens)
				}
			}},
		{"1 s timeout leaves short healthy answers whole", short, variant{overall: time.Second},
			slowedEndIn(pipeline.StatusTimeout)},
		{"stall mid-stream is cut by the overall timeout with the text kept", stall, variant{ftt: 5 * time.Second, overall: 4 * time.Second},
			func(t *testing.T, r record, res *pipeline.Result) {
				if !r.slowed {
					return
				}
				if res.Status != pipeline.StatusTimeout || res.Usage.CompletionTokens != stallAfter {
					t.Errorf("status %s with %d tokens, want timeout after %d", res.Status, res.Usage.CompletionTokens, stallAfter)
				}
				if len(r.stalls) != 0 {
					t.Errorf("stall spans %v for a call cut during the stall (no chunk after it)", r.stalls)
				}
			}},
		{"refusal without a backup is an error", refuse, variant{ftt: 5 * time.Second},
			slowedEndIn(pipeline.StatusError)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs := runBatch(t, tc.s, tc.vr)
			slowed := 0
			for i, r := range rs {
				if r.slowed {
					slowed++
				}
				t.Run(fmt.Sprintf("request %d", i+1), func(t *testing.T) { tc.check(t, r, r.res) })
			}
			if want := tc.s.requests * tc.s.sharePct / 100; slowed != want {
				t.Errorf("%d requests slowed, want %d", slowed, want)
			}
		})
	}
}

// slowedEndIn checks that a slowed call ends with status slowed and every
// other call completes.
func slowedEndIn(slowed string) func(*testing.T, record, *pipeline.Result) {
	return func(t *testing.T, r record, res *pipeline.Result) {
		want := pipeline.StatusComplete
		if r.slowed {
			want = slowed
		}
		if res.Status != want {
			t.Errorf("slowed=%v: status %s, want %s", r.slowed, res.Status, want)
		}
	}
}

// A stall that ends before the overall timeout shows on the timeline.
func TestStallShowsOnTimeline(t *testing.T) {
	s := base()
	s.fault, s.slowBy = faultStall, 2*time.Second
	rs := runBatch(t, s, variant{})
	for _, r := range rs {
		if r.slowed != (len(r.stalls) == 1) {
			t.Fatalf("slowed=%v with stalls %v", r.slowed, r.stalls)
		}
		if r.slowed && r.stalls[0].end-r.stalls[0].start < 2*time.Second {
			t.Errorf("stall of %v, want at least the 2s injected", r.stalls[0].end-r.stalls[0].start)
		}
	}
	v := &view{s: s}
	c := v.timeline(rs, 0, true)
	found := false
	for _, row := range c.Rows {
		for _, sp := range row.Spans {
			found = found || sp.Name == spanStalled
		}
	}
	if !found {
		t.Error("no stalled span on the timeline")
	}
}

// The shared deadline bounds the retry: it starts at 18 s of 20 and gets
// what is left, so no request outlives the deadline.
func TestDeadlineBoundsRetries(t *testing.T) {
	s := base()
	s.slowBy, s.deadline, s.answer = 25*time.Second, 20*time.Second, 600
	rs := runBatch(t, s, variant{ftt: 18 * time.Second, deadline: s.deadline})
	for i, r := range rs {
		res := r.res
		if res.Summary.Total > s.deadline || res.Summary.Elapsed > s.deadline+time.Second {
			t.Errorf("request %d ran %v (last word %v), past the %v deadline", i, res.Summary.Elapsed, res.Summary.Total, s.deadline)
		}
		if !r.slowed {
			continue
		}
		if len(res.Attempts) != 2 {
			t.Fatalf("request %d made %d attempts, want 2", i, len(res.Attempts))
		}
		retry := res.Attempts[1]
		if retry.Budget <= 0 || retry.Budget > 2*time.Second {
			t.Errorf("request %d: retry had %v left, want at most 2s", i, retry.Budget)
		}
		if retry.Start+retry.Budget != s.deadline {
			t.Errorf("request %d: retry at %v with %v left does not end at the deadline", i, retry.Start, retry.Budget)
		}
		if res.Status != pipeline.StatusTimeout || res.Text == "" {
			t.Errorf("request %d: status %s with %d chars, want a timeout that keeps the partial answer", i, res.Status, len(res.Text))
		}
	}
}

func TestRunCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		l := labtest.Must[*Lab](t)(newLab(Config{Engines: pool}, 500*time.Millisecond))
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			time.Sleep(3 * time.Second)
			cancel()
		}()
		start := time.Now()
		var frames []labs.Frame
		err := l.Run(ctx, labtest.Defaults(l), func(f labs.Frame) { frames = append(frames, f) })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > 3*time.Second+100*time.Millisecond {
			t.Errorf("Run returned %v after the start, want soon after the 3s cancel", d)
		}
		for _, f := range frames {
			if f.Final {
				t.Error("a cancelled run emitted a final frame")
			}
		}
		if len(frames) < 2 {
			t.Errorf("%d frames before the cancel, want the timeline refreshing", len(frames))
		}
	})
}
