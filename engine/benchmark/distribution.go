package benchmark

import (
	"maps"
	"math"
	"slices"

	"github.com/DataDog/sketches-go/ddsketch"
)

// exactLimit is how many distinct values of one metric a run keeps, with
// their counts, to compute its figures exactly as numpy does (a few MB);
// past it the values go into a DDSketch. Simulated latencies repeat a lot
// (every sequence in a step sees the same gap), so runs of 100,000 requests
// usually stay exact.
const exactLimit = 1 << 18

// sketchAccuracy is the DDSketch's relative error bound on every quantile:
// 0.1%, below the table's two decimals for any figure under 10 ms.
const sketchAccuracy = 0.001

// distribution gathers one metric's values in memory bounded by exactLimit:
// exact while small, then a quantile sketch (DataDog's DDSketch, which
// guarantees a relative error on every quantile whatever the range, so no
// bounds need fixing ahead as an HDR histogram would) with mean and
// standard deviation kept exactly by Welford's method.
type distribution struct {
	counts map[float64]int // milliseconds → how often, while exact
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
		d.addToSketch(ms, 1)
		return
	}
	if d.counts == nil {
		d.counts = make(map[float64]int)
	}
	d.counts[ms]++
	if len(d.counts) > exactLimit {
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
	for v, c := range d.counts {
		d.addToSketch(v, c)
	}
	d.counts = nil
}

// addToSketch adds a value, clamping the impossible negative or NaN
// latency to zero so the sketch never refuses it.
func (d *distribution) addToSketch(ms float64, count int) {
	if !(ms > 0) {
		ms = 0
	}
	_ = d.sketch.AddWithCount(ms, float64(count)) // fails only out of the mapping's range
}

// summary is the distribution's figures in milliseconds.
func (d *distribution) summary(ps []float64) Summary {
	if d.sketch == nil {
		return d.exactSummary(ps)
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

// exactSummary is summarize over the values in sorted order, each repeated
// as often as it was seen: the same sums in the same order, so the same
// bits, without holding every value.
func (d *distribution) exactSummary(ps []float64) Summary {
	if d.n == 0 {
		return summarize(nil, ps)
	}
	values := slices.Sorted(maps.Keys(d.counts))
	var sum float64
	for _, v := range values {
		for range d.counts[v] {
			sum += v
		}
	}
	mean := sum / float64(d.n)
	var sq float64
	for _, v := range values {
		for range d.counts[v] {
			sq += (v - mean) * (v - mean)
		}
	}
	out := Summary{Mean: mean, Median: d.percentile(values, 50), Std: math.Sqrt(sq / float64(d.n))}
	for _, p := range ps {
		out.Percentiles = append(out.Percentiles, d.percentile(values, p))
	}
	return out
}

// percentile is numpy's linear interpolation between the values at the
// ranks around p, found by walking the counts.
func (d *distribution) percentile(values []float64, p float64) float64 {
	rank := p / 100 * float64(d.n-1)
	lo := int(math.Floor(rank))
	hi := min(int(math.Ceil(rank)), d.n-1)
	at := func(i int) float64 {
		seen := 0
		for _, v := range values {
			if seen += d.counts[v]; i < seen {
				return v
			}
		}
		return values[len(values)-1]
	}
	x, y := at(lo), at(hi)
	return x + (y-x)*(rank-float64(lo))
}
