package benchmark

import (
	"math"
	"reflect"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// The streamed Simulate must print what RunSim + Compute print: the same
// Result, bit for bit, while the run is small enough to stay exact.
func TestSimulateMatchesRunSim(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Workload, *engine.Config)
	}{
		{"burst", func(w *Workload, c *engine.Config) {}},
		{"poisson with percentiles", func(w *Workload, c *engine.Config) {
			w.RequestRate, w.Percentiles = 20, []float64{1, 50, 90, 99.9}
		}},
		{"bursty capped", func(w *Workload, c *engine.Config) {
			w.RequestRate, w.Burstiness, w.MaxConcurrency, w.RangeRatio = 40, 0.4, 6, 0.5
		}},
		{"static shared prefix", func(w *Workload, c *engine.Config) {
			w.SharedPrefixLen, c.Policy, c.BatchSize = 64, engine.Static, 8
		}},
		{"sequential", func(w *Workload, c *engine.Config) { w.RequestRate, c.Policy = 100, engine.Sequential }},
		{"small window", func(w *Workload, c *engine.Config) { c.MaxNumSeqs = 4 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := DefaultWorkload()
			w.NumRequests, w.InputLen, w.OutputLen, w.Seed = 120, 128, 16, 5
			cfg := engine.DefaultConfig()
			c.change(&w, &cfg)
			reqs, err := Sample(w, textmodel.Default(), testCorpus)
			if err != nil {
				t.Fatal(err)
			}
			outs, dur, err := RunSim(cfg, reqs, w.MaxConcurrency)
			if err != nil {
				t.Fatal(err)
			}
			want := Compute(outs, dur, w.Percentiles)
			d, err := NewDataset(w, textmodel.Default(), testCorpus)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Simulate(cfg, d, w.MaxConcurrency, w.Percentiles)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("streamed\n%+v\nRunSim + Compute\n%+v", got, want)
			}
		})
	}
}

// A request the engine cannot hold fails the run with a reason.
func TestSimulateRefusesOversizedRequest(t *testing.T) {
	w := DefaultWorkload()
	w.NumRequests, w.InputLen = 2, 200_000
	d, err := NewDataset(w, textmodel.Default(), testCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(engine.DefaultConfig(), d, 0, w.Percentiles); err == nil {
		t.Fatal("a prompt over the model's context was simulated")
	}
}

// Past exactLimit distinct values a distribution is a sketch: its
// quantiles within the sketch's relative accuracy of the exact ones (plus
// the gap between neighbouring values, as a sketch returns a rank's value
// where numpy interpolates) and its mean and std exact to rounding.
func TestDistributionSketchIsClose(t *testing.T) {
	ps := []float64{1, 50, 90, 99, 99.9}
	cases := []struct {
		name  string
		value func(i int) float64 // seconds
	}{
		{"uniform", func(i int) float64 { return float64(i%400_000+1) / 1e6 }},
		{"long tail", func(i int) float64 { return 0.001 * math.Exp(float64(i%300_007)/60_000) }},
	}
	for _, c := range cases {
		var d distribution
		var all []float64
		for i := range 600_000 {
			v := c.value(i)
			d.add(v)
			all = append(all, v*1000)
		}
		if d.sketch == nil || d.counts != nil {
			t.Fatalf("%s: still exact after %d distinct values", c.name, exactLimit+1)
		}
		got, want := d.summary(ps), summarize(all, ps)
		near := func(what string, g, w, tol float64) {
			if math.Abs(g-w) > tol*math.Abs(w) {
				t.Errorf("%s: %s = %g, exact %g (tolerance %g)", c.name, what, g, w, tol)
			}
		}
		near("mean", got.Mean, want.Mean, 1e-9)
		near("std", got.Std, want.Std, 1e-6)
		near("median", got.Median, want.Median, 2*sketchAccuracy)
		for i, p := range ps {
			near("p"+percentileWord(p), got.Percentiles[i], want.Percentiles[i], 2*sketchAccuracy)
		}
	}
}

// FuzzExactSummaryMatchesSort checks that the counted exact figures are the
// bits summarize gets from sorting every value, for any values and
// percentiles.
func FuzzExactSummaryMatchesSort(f *testing.F) {
	f.Add([]byte{1, 2, 2, 3, 250, 7, 7, 7}, 99.0)
	f.Add([]byte{0}, 50.0)
	f.Add([]byte{9, 1, 9, 1, 200, 200, 3}, 0.0)
	f.Add([]byte{}, 100.0)
	f.Fuzz(func(t *testing.T, raw []byte, p float64) {
		if math.IsNaN(p) || p < 0 || p > 100 {
			return
		}
		var d distribution
		var ms []float64
		for i, b := range raw {
			s := float64(b)/997 + float64(i%3)/7 // repeats and near-repeats
			d.add(s)
			ms = append(ms, s*1000)
		}
		got, want := d.summary([]float64{p}), summarize(ms, []float64{p})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("counted %+v, sorted %+v", got, want)
		}
	})
}
