package charts

import (
	"math"
	"strconv"

	"github.com/latencylab/latencylab/labs"
)

// linScale maps a data interval [d0, d1] linearly (or by log10) onto a pixel
// interval [r0, r1]. The range may be reversed (r0 > r1) for Y axes.
type linScale struct {
	d0, d1 float64
	r0, r1 float64
	log    bool
}

// pos maps v to a pixel position.
func (s linScale) pos(v float64) float64 {
	a, b := s.d0, s.d1
	if s.log {
		v, a, b = math.Log10(v), math.Log10(a), math.Log10(b)
	}
	if b == a {
		return (s.r0 + s.r1) / 2
	}
	return s.r0 + (v-a)/(b-a)*(s.r1-s.r0)
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// niceStep returns the smallest step of the form {1, 2, 5} × 10^k that
// splits span into at most maxIntervals intervals.
func niceStep(span float64, maxIntervals int) float64 {
	return labs.NiceStep(span / float64(max(maxIntervals, 1)))
}

// prevNice returns the 1-2-5 step just below step.
func prevNice(step float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	switch m := math.Round(step / p); {
	case m >= 5:
		return 2 * p
	case m >= 2:
		return p
	}
	return p / 2
}

// axis is a fitted axis domain with its tick values.
type axis struct {
	lo, hi float64
	step   float64 // 0 for log axes
	ticks  []float64
	log    bool
}

// niceAxis fits a domain around [lo, hi] rounded out to a 1-2-5 step with
// at most maxTicks ticks. When fixedHi > 0 the upper end is exactly fixedHi
// (a live chart must not rescale every frame); ticks then stop at the last
// step at or below it. Degenerate input (equal ends, NaN) gets a usable
// domain rather than an error: an empty chart still draws axes.
func niceAxis(lo, hi float64, maxTicks int, fixedHi float64) axis {
	if !finite(lo) || !finite(hi) {
		lo, hi = 0, 1
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	fixed := fixedHi > 0 && finite(fixedHi) && fixedHi > lo
	if fixed {
		hi = fixedHi
	}
	if hi == lo {
		switch {
		case lo == 0:
			hi = 1
		case lo > 0:
			lo, hi = 0, lo*1.2 // a single positive value sits on a zero-based axis
		default:
			lo, hi = lo*1.2, 0
		}
	}
	if maxTicks < 2 {
		maxTicks = 2
	}
	step := niceStep(hi-lo, maxTicks-1)
	if fixed {
		// With a fixed end the last interval may be partial, so a finer
		// step fits when whole steps still number within the budget.
		for {
			finer := prevNice(step)
			if math.Floor((hi-math.Floor(lo/finer+1e-9)*finer)/finer+1e-9)+1 > float64(maxTicks) {
				break
			}
			step = finer
		}
	}
	// Rounding both ends out can add an interval; widen the step until the
	// rounded domain fits the tick budget.
	for i := 0; i < 4; i++ {
		nlo := math.Floor(lo/step+1e-9) * step
		nhi := hi
		if !fixed {
			nhi = math.Ceil(hi/step-1e-9) * step
		}
		if int(math.Floor((nhi-nlo)/step+1e-9)) <= maxTicks-1 || i == 3 {
			lo, hi = nlo, nhi
			break
		}
		step = niceStep(step*1.01, 1)
	}
	a := axis{lo: lo, hi: hi, step: step}
	first := math.Ceil(lo/step - 1e-9)
	for i := first; i*step <= hi+step*1e-9; i++ {
		// Twelve significant digits drop float noise (0.6000000000000001)
		// and the sign of -0.
		v, _ := strconv.ParseFloat(strconv.FormatFloat(i*step, 'g', 12, 64), 64)
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		a.ticks = append(a.ticks, v)
	}
	return a
}

// logAxis fits a log10 domain to whole decades around the positive range
// [lo, hi], with ticks at each decade and at 2 and 5 when few decades show.
func logAxis(lo, hi float64, fixedHi float64) axis {
	if !(lo > 0) || !finite(lo) {
		lo = 1
	}
	if !(hi > 0) || !finite(hi) || hi < lo {
		hi = lo
	}
	d0 := math.Floor(math.Log10(lo))
	d1 := math.Ceil(math.Log10(hi))
	if d1 <= d0 {
		d1 = d0 + 1
	}
	a := axis{lo: math.Pow(10, d0), hi: math.Pow(10, d1), log: true}
	if fixedHi > a.lo && finite(fixedHi) {
		a.hi = fixedHi
	}
	mults := []float64{1}
	if d1-d0 <= 2 {
		mults = []float64{1, 2, 5}
	}
	for d := d0; d <= d1; d++ {
		for _, m := range mults {
			v := m * math.Pow(10, d)
			if v >= a.lo*(1-1e-9) && v <= a.hi*(1+1e-9) {
				a.ticks = append(a.ticks, v)
			}
		}
	}
	return a
}
