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
