package benchmark

import (
	"math"
	"slices"
)

// mean, std and percentile follow numpy's defaults (np.mean, np.std with
// ddof=0, np.percentile with linear interpolation) because vLLM computes its
// figures with them; an empty sample yields 0 as `np.mean(x or 0)` does.

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func std(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := mean(xs)
	var s float64
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(xs)))
}

// percentile expects sorted input and p in [0, 100].
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := p / 100 * float64(n-1)
	lo := int(math.Floor(rank))
	hi := int(math.Ceil(rank))
	if hi >= n {
		hi = n - 1
	}
	frac := rank - float64(lo)
	return sorted[lo] + (sorted[hi]-sorted[lo])*frac
}

// Summary is one metric's distribution in milliseconds.
type Summary struct {
	Mean, Median, Std float64
	// Percentiles holds one value per requested percentile, in the order asked.
	Percentiles []float64
}

// summarize sorts ms in place and computes its figures exactly.
func summarize(ms []float64, ps []float64) Summary {
	slices.Sort(ms)
	out := Summary{Mean: mean(ms), Median: percentile(ms, 50), Std: std(ms)}
	for _, p := range ps {
		out.Percentiles = append(out.Percentiles, percentile(ms, p))
	}
	return out
}
