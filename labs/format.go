package labs

import (
	"math"
	"strconv"
	"time"
)

// Millis is d in milliseconds, the unit every lab's stats and charts use.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FormatMS formats milliseconds for a status line or a mark: "412 ms",
// "2.41 s".
func FormatMS(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
}

// AxisEnd is a live chart's time axis end once the run has reached t (ms):
// end itself until t passes it, then t with headroom (a factor above 1)
// rounded up by NiceCeil. The axis grows in round steps and only when a
// run outlasts it, so the chart does not rescale on every frame.
func AxisEnd(end, t, headroom float64) float64 {
	if t > end {
		return NiceCeil(t * headroom)
	}
	return end
}

// NiceCeil rounds x up to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power
// of ten, so a fixed axis ends on a round number. It is 1 for x that is not
// a positive finite number.
func NiceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}
