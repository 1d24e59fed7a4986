package batching

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// runSweepFrames runs a sweep and returns every frame it emitted.
func runSweepFrames(t testing.TB, l *Lab, v labs.Values) []labs.Frame {
	t.Helper()
	var frames []labs.Frame
	if err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
		t.Fatal(err)
	}
	if len(frames) == 0 || !frames[len(frames)-1].Final {
		t.Fatal("sweep ended without a final frame")
	}
	if last := frames[len(frames)-1]; last.Error != "" {
		t.Fatalf("sweep failed: %s", last.Error)
	}
	return frames
}

func sweepValues(change labs.Values) labs.Values {
	v := labs.Values{}
	v[knobMode] = modeSweep
	for k, x := range change {
		v[k] = x
	}
	return v
}

// At the highest rate every policy is overloaded, so output throughput is
// each policy's capacity: continuous ≥ static ≥ sequential. And since each
// policy's rates are placed around its own capacity, every policy shows a
// knee: light load first, where p95 TTFT barely moves, then a rate past
// which it climbs tenfold and more. The knee sits inside the range, with
// light-load points before it and overload points after.
func TestSweepThroughputAndKnees(t *testing.T) {
	l := mustNew(t, Config{})
	tests := []struct {
		name string
		v    labs.Values
	}{
		{"sweep preset", l.Presets()[5].Values},
		{"defaults (batch 8)", sweepValues(nil)},
		{"long answers, batch 32", sweepValues(labs.Values{knobMaxBatch: 32.0, knobOutputMean: 512.0, knobSpread: 2.0})},
		{"long prompts", sweepValues(labs.Values{knobMaxBatch: 64.0, knobPrompt: 4000.0})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frames := runSweepFrames(t, l, tc.v)
			final := frames[len(frames)-1]
			c := chartByID(final, chartSweepThroughput)
			if c == nil || len(c.Series) != 3 {
				t.Fatalf("throughput chart missing or without 3 series: %+v", c)
			}
			top := map[string]float64{}
			for _, s := range c.Series {
				if len(s.Points) != sweepRates {
					t.Fatalf("series %s has %d points, want %d", s.Name, len(s.Points), sweepRates)
				}
				top[s.Name] = s.Points[len(s.Points)-1].Y
			}
			if !(top["continuous"] >= top["static"] && top["static"] >= top["sequential"]) {
				t.Errorf("throughput at the highest rate: continuous %v, static %v, sequential %v; want continuous ≥ static ≥ sequential",
					top["continuous"], top["static"], top["sequential"])
			}
			if top["continuous"] <= 2*top["sequential"] {
				t.Errorf("continuous %v tok/s is not well above sequential %v", top["continuous"], top["sequential"])
			}
			for _, s := range chartByID(final, chartSweepTTFT).Series {
				light, heavy := s.Points[0].Y, s.Points[len(s.Points)-1].Y
				knee := slices.IndexFunc(s.Points, func(p labs.Point) bool { return p.Y > 3*light })
				if heavy < 10*light || knee < 3 || knee > len(s.Points)-3 {
					t.Errorf("%s: p95 TTFT %v ms at the lightest rate, %v ms at the heaviest, knee at point %d of %d; want the knee inside the range",
						s.Name, light, heavy, knee, len(s.Points))
				}
			}
		})
	}
}

// The sweep fills in point by point, and its result does not depend on
// how many workers run it.
func TestSweepDeterministicAndProgressive(t *testing.T) {
	v := sweepValues(nil)
	one := runSweepFrames(t, mustNew(t, Config{Workers: 1}), v)
	four := runSweepFrames(t, mustNew(t, Config{Workers: 4}), v)
	if !reflect.DeepEqual(one[len(one)-1], four[len(four)-1]) {
		t.Error("final frame differs between 1 and 4 workers")
	}
	points := len(sweepPolicies) * sweepRates
	if len(one) != points+1 {
		t.Errorf("%d frames, want one before the first point and one per point (%d)", len(one), points+1)
	}
	prev := -1
	for i, f := range one {
		n := 0
		for _, s := range chartByID(f, chartSweepTTFT).Series {
			n += len(s.Points)
		}
		if n <= prev && i > 0 {
			t.Errorf("frame %d has %d points, not more than before (%d)", i, n, prev)
		}
		prev = n
	}
	final := one[len(one)-1]
	labtest.CheckUnits(t, "sweep", final)
	if got := len(final.Tables[0].Rows); got != points {
		t.Errorf("table has %d rows, want %d", got, points)
	}
}

// Goodput counts requests within both limits: a limit nobody meets gives
// zero; with loose limits every request at the lightest load counts.
func TestSweepGoodputFollowsLimits(t *testing.T) {
	l := mustNew(t, Config{})
	tight := runSweepFrames(t, l, sweepValues(labs.Values{knobTTFTSLO: 50.0, knobTPOTSLO: 5.0}))
	loose := runSweepFrames(t, l, sweepValues(labs.Values{knobTTFTSLO: 10000.0, knobTPOTSLO: 500.0}))
	for _, pol := range sweepPolicies {
		key := "goodput_" + string(pol)
		g, _ := statValue(tight[len(tight)-1], key)
		if g != 0 {
			t.Errorf("%s with a 5 ms TPOT limit = %v, want 0", key, g)
		}
	}
	final := loose[len(loose)-1]
	g, _ := statValue(final, "goodput_continuous")
	// Rows run policy by policy from the lightest rate up.
	i := slices.IndexFunc(final.Tables[0].Rows, func(row []string) bool { return row[0] == "continuous" })
	all := labs.Thousands(sweepRequests) + " of " + labs.Thousands(sweepRequests)
	if row := final.Tables[0].Rows[i]; row[7] != all {
		t.Errorf("continuous at %s req/s: %s good with loose limits, want %s", row[1], row[7], all)
	}
	if g <= 0 {
		t.Errorf("continuous goodput with loose limits = %v", g)
	}
}

// BenchmarkSweep times the lab's whole sweep as a learner starts it, the
// sweep preset through the lab's run function: three capacity bursts, then
// 3 policies × 16 rates × 1,000 requests on the virtual clock, every
// frame built. The goal (issue 14) is ≤ 2 s a sweep on this 2-core
// machine, so the page stays interactive; sweep-s reports the worst run.
func BenchmarkSweep(b *testing.B) {
	l := mustNew(b, Config{})
	v := l.Presets()[5].Values
	var worst time.Duration
	for b.Loop() {
		start := time.Now()
		runSweepFrames(b, l, v)
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(worst.Seconds(), "worst-sweep-s")
	b.ReportMetric(float64(len(sweepPolicies)*sweepRates*sweepRequests)/worst.Seconds(), "sim-req/s")
}

func TestFmtNumGroupsThousands(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 7.5: "7.5", 999: "999", 1000: "1,000", 171268.1: "171,268.1", 2914: "2,914", -0.25: "-0.25", -12345.5: "-12,345.5"} {
		if got := fmtNum(x); got != want {
			t.Errorf("fmtNum(%v) = %q, want %q", x, got, want)
		}
	}
}
