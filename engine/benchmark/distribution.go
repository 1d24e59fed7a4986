package benchmark

import (
	"math"

	"github.com/DataDog/sketches-go/ddsketch"
)

// exactLimit is how many values of one metric a run keeps to compute its
// figures exactly as numpy does (32 MB of float64s); past it the values go
// into a DDSketch. A run of up to about 33,000 requests of 128 tokens keeps
// even its inter-token gaps exact.
const exactLimit = 1 << 22

// sketchAccuracy is the DDSketch's relative error bound on every quantile:
// 0.1%, below the table's two decimals for any figure under 10 ms.
const sketchAccuracy = 0.001

// distribution gathers one metric's values in memory bounded by exactLimit:
// exact while small, then a quantile sketch (DataDog's DDSketch, which
// guarantees a relative error on every quantile whatever the range, so no
// bounds need fixing ahead as an HDR histogram would) with mean and
// standard deviation kept exactly by Welford's method.
type distribution struct {
	exact  []float64 // milliseconds, while the count is at most exactLimit
	sketch *ddsketch.DDSketch
	n      int
	mean   float64 // Welford's running mean and sum of squared deviations
	m2     float64
}

// add records one value given in seconds.
func (d *distribution) add(seconds float64) {
	ms := seconds * 1000
	d.n++
	delta := ms - d.mean
	d.mean += delta / float64(d.n)
	d.m2 += delta * (ms - d.mean)
	if d.sketch != nil {
		d.addToSketch(ms)
		return
	}
	d.exact = append(d.exact, ms)
	if len(d.exact) > exactLimit {
		d.toSketch()
	}
}

// toSketch moves the exact values into a sketch and lets them go.
func (d *distribution) toSketch() {
	s, err := ddsketch.NewDefaultDDSketch(sketchAccuracy)
	if err != nil {
		return // only for an accuracy outside (0, 1); stay exact
	}
	d.sketch = s
	for _, v := range d.exact {
		d.addToSketch(v)
	}
	d.exact = nil
}

// addToSketch adds a value, clamping the impossible negative or NaN
// latency to zero so the sketch never refuses it.
func (d *distribution) addToSketch(ms float64) {
	if !(ms > 0) {
		ms = 0
	}
	_ = d.sketch.Add(ms) // only fails for values out of the mapping's range
}

// summary is the distribution's figures in milliseconds.
func (d *distribution) summary(ps []float64) Summary {
	if d.sketch == nil {
		return summarize(d.exact, ps)
	}
	quantile := func(p float64) float64 {
		v, err := d.sketch.GetValueAtQuantile(p / 100)
		if err != nil {
			return 0
		}
		return v
	}
	out := Summary{Mean: d.mean, Median: quantile(50), Std: math.Sqrt(d.m2 / float64(d.n))}
	for _, p := range ps {
		out.Percentiles = append(out.Percentiles, quantile(p))
	}
	return out
}
