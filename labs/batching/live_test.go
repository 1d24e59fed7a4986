package batching

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// pacedLab is a lab whose live runs use a fresh paced clock.
func pacedLab(t *testing.T) *Lab {
	t.Helper()
	clk := newPacedClock()
	t.Cleanup(clk.close)
	l := mustNew(t, Config{Clock: clk})
	l.arrived = clk.solo
	return l
}

// liveRun runs v on a paced lab and returns every frame.
func liveRun(t *testing.T, v labs.Values) []labs.Frame {
	t.Helper()
	l := pacedLab(t)
	var frames []labs.Frame
	if err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
		t.Fatal(err)
	}
	if len(frames) == 0 {
		t.Fatal("no frames")
	}
	for i, f := range frames[:len(frames)-1] {
		if f.Final {
			t.Fatalf("frame %d of %d is final", i, len(frames))
		}
	}
	final := frames[len(frames)-1]
	if !final.Final || final.Error != "" {
		t.Fatalf("last frame final=%v error=%q", final.Final, final.Error)
	}
	return frames
}

// livePresets are the presets that make a live run.
func livePresets(t *testing.T) []labs.Preset {
	var out []labs.Preset
	for _, p := range mustNew(t, Config{}).Presets() {
		if p.Values[knobMode] == modeLive {
			out = append(out, p)
		}
	}
	if len(out) != 6 {
		t.Fatalf("%d live presets, want 6", len(out))
	}
	return out
}

// rowTimes reads a timeline row back: arrival (start of the first span),
// first scheduled, first token and last token.
type rowTimes struct{ arrival, sched, first, end float64 }

// checkRows verifies that every request has a row whose spans are in
// order queued → prefill → decode (→ seat held), each non-empty and
// starting where the previous ended, and returns the rows' times.
func checkRows(t *testing.T, c *labs.Chart, want int) []rowTimes {
	t.Helper()
	if c == nil || c.Kind != labs.ChartTimeline {
		t.Fatalf("no timeline chart: %+v", c)
	}
	if len(c.Rows) != want {
		t.Fatalf("timeline has %d rows, want %d", len(c.Rows), want)
	}
	rank := map[string]int{spanQueued: 0, spanPrefill: 1, spanDecode: 2, spanHeld: 3}
	out := make([]rowTimes, len(c.Rows))
	for i, row := range c.Rows {
		if len(row.Spans) < 2 {
			t.Fatalf("row %s has spans %+v, want at least prefill and decode", row.Label, row.Spans)
		}
		prev := -1
		r := rowTimes{arrival: row.Spans[0].Start, sched: row.Spans[0].Start}
		for j, sp := range row.Spans {
			k, ok := rank[sp.Name]
			if !ok || k <= prev {
				t.Fatalf("row %s: span %q out of order in %+v", row.Label, sp.Name, row.Spans)
			}
			prev = k
			if !(sp.End > sp.Start) || sp.Start < 0 {
				t.Errorf("row %s: span %+v is empty or negative", row.Label, sp)
			}
			if j > 0 && sp.Start != row.Spans[j-1].End {
				t.Errorf("row %s: gap between %+v and %+v", row.Label, row.Spans[j-1], sp)
			}
			switch sp.Name {
			case spanPrefill:
				r.sched, r.first = sp.Start, sp.End
			case spanDecode:
				r.end = sp.End
			}
		}
		if r.first == 0 || r.end == 0 {
			t.Fatalf("row %s lacks prefill or decode: %+v", row.Label, row.Spans)
		}
		out[i] = r
	}
	return out
}

// The timeline has a row per request with ordered spans, and the stats the
// learner sees are the ones the timeline shows: p50/p95 TTFT from the rows'
// arrival-to-first-token spans. Both the live run (paced clock) and the
// virtual-clock replay of the same workload are checked, and they agree.
func TestLiveTimelineAndStats(t *testing.T) {
	for _, p := range livePresets(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, err := parse(t, p.Values)
			if err != nil {
				t.Fatal(err)
			}
			want := s.requests
			if s.longPrompt > 0 {
				want++
			}
			frames := liveRun(t, p.Values)
			final := frames[len(frames)-1]
			replay := replayRun(t, p.Values)
			for name, f := range map[string]labs.Frame{"live": final, "replay": replay} {
				rows := checkRows(t, chartByID(f, chartTimeline), want)
				var ttft []float64
				for _, r := range rows {
					ttft = append(ttft, r.first-r.arrival)
				}
				slices.Sort(ttft)
				for key, pct := range map[string]float64{statTTFTP50: 50, statTTFTP95: 95} {
					got, ok := statValue(f, key)
					if !ok || math.Abs(got-round1(percentile(ttft, pct))) > 0.05 {
						t.Errorf("%s: stat %s = %v, timeline says %v", name, key, got, percentile(ttft, pct))
					}
				}
				if n, _ := statValue(f, statCompleted); int(n) != want {
					t.Errorf("%s: completed %v, want %d", name, n, want)
				}
			}
			// The live engine takes an arrival at the next step boundary
			// and a burst may straddle one step, so allow a few steps.
			// Under static batching a request that lands one step late
			// misses its batch and waits for the next whole batch, so the
			// live total may be up to one batch longer.
			tol := 0.1
			if s.policy == engine.Static {
				tol = 0.3
			}
			for _, key := range []string{statTotal, statTPOTP50} {
				lv, _ := statValue(final, key)
				rv, _ := statValue(replay, key)
				if math.Abs(lv-rv) > tol*rv+30 {
					t.Errorf("%s: live %v, virtual clock %v", key, lv, rv)
				}
			}
		})
	}
}

// Static batching returns a batch together: every row of a batch (rows
// that started prefill in the same step) ends at the same moment, the
// longest answer's end, and shorter answers show a held seat. Continuous
// batching lets each request leave when done.
func TestStaticRowsEndTogether(t *testing.T) {
	base := mustNew(t, Config{}).Presets()[0].Values
	cont := labs.Values{}
	for k, x := range base {
		cont[k] = x
	}
	cont[knobPolicy] = string(engine.Continuous)
	tests := []struct {
		name   string
		v      labs.Values
		static bool
	}{
		{"static", base, true},
		{"continuous", cont, false},
	}
	for _, tc := range tests {
		for _, path := range []string{"live", "replay"} {
			t.Run(tc.name+"/"+path, func(t *testing.T) {
				var f labs.Frame
				if path == "live" {
					fr := liveRun(t, tc.v)
					f = fr[len(fr)-1]
				} else {
					f = replayRun(t, tc.v)
				}
				c := chartByID(f, chartTimeline)
				checkRows(t, c, 32)
				ends := map[float64][]float64{} // prefill start → row ends
				held := 0
				for _, row := range c.Rows {
					last := row.Spans[len(row.Spans)-1]
					if last.Name == spanHeld {
						held++
					}
					for _, sp := range row.Spans {
						if sp.Name == spanPrefill {
							ends[sp.Start] = append(ends[sp.Start], last.End)
						}
					}
				}
				together := true
				for start, e := range ends {
					if slices.Min(e) != slices.Max(e) {
						together = false
						if tc.static {
							t.Errorf("batch starting at %.1f ms: rows end between %.1f and %.1f ms", start, slices.Min(e), slices.Max(e))
						}
					}
				}
				if tc.static && (len(ends) < 4 || held == 0) {
					t.Errorf("static: %d batches, %d held seats; want 4 batches of 8 with held seats", len(ends), held)
				}
				if !tc.static && (together || held > 0) {
					t.Errorf("continuous: rows end together=%v, %d held seats; want each request to leave when done", together, held)
				}
			})
		}
	}
}

// A long prompt arriving mid-decode stalls every decoding request for one
// long step without chunking; with chunked prefill the stall is split into
// budget-sized steps, so p99 and max ITL drop.
func TestChunkedPrefillLowersITL(t *testing.T) {
	p := livePresets(t)
	off, on := p[3].Values, p[4].Values
	if off[knobChunked] != false || on[knobChunked] != true {
		t.Fatal("presets 4 and 5 should be chunked prefill off and on")
	}
	for _, path := range []string{"live", "replay"} {
		t.Run(path, func(t *testing.T) {
			run := func(v labs.Values) labs.Frame {
				if path == "replay" {
					return replayRun(t, v)
				}
				fr := liveRun(t, v)
				return fr[len(fr)-1]
			}
			fOff, fOn := run(off), run(on)
			for _, key := range []string{statITLP99, statITLMax} {
				a, _ := statValue(fOff, key)
				b, _ := statValue(fOn, key)
				if !(b < a) {
					t.Errorf("%s: chunked %v ms, not below unchunked %v ms", key, b, a)
				}
			}
			tpot, _ := statValue(fOff, statTPOTP50)
			spike, _ := statValue(fOff, statITLMax)
			if spike < 10*tpot {
				t.Errorf("unchunked max ITL %v ms is no spike over a %v ms TPOT", spike, tpot)
			}
			c := chartByID(fOff, chartITL)
			if c == nil || len(c.Series) != 1 || len(c.Series[0].Points) == 0 {
				t.Fatalf("ITL chart missing or empty: %+v", c)
			}
		})
	}
}

// Cancelling a live run returns ctx's error without a final frame and
// closes the run's dedicated engine.
func TestLiveCancelClosesEngine(t *testing.T) {
	l := mustNew(t, Config{}) // wall clock: the sequential preset would take ~40 s
	var eng *live.Engine
	l.started = func(le *live.Engine) { eng = le }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	frames := make(chan labs.Frame, 1024)
	go func() { done <- l.Run(ctx, l.Presets()[2].Values, func(f labs.Frame) { frames <- f }) }()
	<-frames // the run has started
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run after cancel = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second): // a hang guard, not a timing check
		t.Fatal("Run did not return after cancel")
	}
	close(frames)
	for f := range frames {
		if f.Final {
			t.Error("a cancelled run emitted a final frame")
		}
	}
	req := engine.Request{ID: "after", PromptTokens: []int{1, 2, 3}, MaxTokens: 1, IgnoreEOS: true}
	if _, err := eng.Submit(context.Background(), req); !errors.Is(err, live.ErrClosed) {
		t.Errorf("dedicated engine after the run: Submit = %v, want ErrClosed", err)
	}
}

// With the shared engine the run goes to the pool's engine for the
// profile, which stays open for other learners afterwards.
func TestLiveSharedEngine(t *testing.T) {
	clk := newPacedClock()
	defer clk.close()
	pool := labs.NewEngines(labs.EnginesConfig{Clock: clk})
	defer pool.Close()
	l := mustNew(t, Config{Engines: pool, Clock: clk})
	l.arrived = clk.solo
	l.started = func(*live.Engine) { t.Error("a shared run started a dedicated engine") }
	v := l.Presets()[0].Values
	v[knobShared] = true
	var final labs.Frame
	if err := l.Run(context.Background(), v, func(f labs.Frame) { final = f }); err != nil {
		t.Fatal(err)
	}
	if !final.Final || final.Error != "" {
		t.Fatalf("final=%v error=%q", final.Final, final.Error)
	}
	checkRows(t, chartByID(final, chartTimeline), 32)
	if pool.Len() != 1 {
		t.Errorf("pool has %d engines, want the shared one", pool.Len())
	}
	le, err := pool.Get(labs.Profile{Hardware: defaults.gpu, Model: defaults.model})
	if err != nil {
		t.Fatal(err)
	}
	if le.Config().Policy != engine.Continuous {
		t.Errorf("shared engine runs %s, want the pool's continuous default", le.Config().Policy)
	}
	ch, err := le.Submit(context.Background(), engine.Request{ID: "after", PromptTokens: []int{1, 2, 3}, MaxTokens: 1, IgnoreEOS: true})
	if err != nil {
		t.Fatalf("shared engine closed after the run: %v", err)
	}
	for range ch {
	}
}
