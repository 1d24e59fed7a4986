package pipelinelab

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// Percentile is the nearest-rank percentile of xs (p in 0..100): the
// smallest value with at least p percent of the samples at or below it.
// It returns 0 for no samples.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = min(max(rank, 1), len(s))
	return s[rank-1]
}

// Mean is the arithmetic mean of xs, 0 for none.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

// Histogram bins xs into about bins equal bins starting at 0, with a
// round bin width, and attaches marks.
func Histogram(xs []float64, bins int, marks []labs.Mark) *labs.Histogram {
	hi := 0.0
	for _, x := range xs {
		hi = max(hi, x)
	}
	width := labs.NiceStep(max(hi, 1) / float64(max(bins, 1)))
	n := int(hi/width) + 1
	counts := make([]int, n)
	for _, x := range xs {
		counts[min(int(x/width), n-1)]++
	}
	return &labs.Histogram{BinWidth: width, Start: 0, Counts: counts, Marks: marks}
}

// Fit is the least-squares line y = A + B·x through pts; ok is false with
// fewer than two distinct x.
func Fit(pts []labs.Point) (a, b float64, ok bool) {
	n := float64(len(pts))
	var sx, sy, sxx, sxy float64
	for _, p := range pts {
		sx += p.X
		sy += p.Y
		sxx += p.X * p.X
		sxy += p.X * p.Y
	}
	den := n*sxx - sx*sx
	if len(pts) < 2 || math.Abs(den) < 1e-12 {
		return 0, 0, false
	}
	b = (n*sxy - sx*sy) / den
	return (sy - b*sx) / n, b, true
}

// MS is d in milliseconds.
func MS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FmtMS formats milliseconds for a sentence: "815 ms" or "4.6 s".
func FmtMS(ms float64) string {
	if math.Abs(ms) >= 10000 {
		return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s"
	}
	if math.Abs(ms) >= 1000 {
		return strconv.FormatFloat(ms/1000, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
}

// FmtUSD formats a small cost in dollars with enough digits to compare.
func FmtUSD(usd float64) string {
	if usd == 0 {
		return "$0"
	}
	return fmt.Sprintf("$%.6f", usd)
}

// Round1 rounds to one decimal, for stats.
func Round1(x float64) float64 { return math.Round(x*10) / 10 }
