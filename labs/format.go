package labs

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Millis is d in milliseconds, the unit every lab's stats and charts use.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FormatMS formats milliseconds for a status line or a mark: "412 ms",
// "29.8 ms", "2.41 s". Under a second it keeps the decimals a stat card
// shows (Number), so a status never says "30 ms" beside a card's 29.8.
func FormatMS(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'f', 2, 64) + " s"
	}
	return Number(v) + " ms"
}

// Number writes a figure as the stat cards do: whole from 100 up, with
// thousands grouped; one decimal from 10, two from 1, three below.
func Number(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	switch a := math.Abs(v); {
	case a >= 100 || a == math.Trunc(a):
		return Whole(v)
	case a >= 10:
		return Fixed(v, 1)
	case a >= 1:
		return Fixed(v, 2)
	}
	return Fixed(v, 3)
}

// Fixed writes v with at most decimals decimals (trailing zeros dropped)
// and thousands grouped: Fixed(16000, 0) is "16,000", Fixed(2.50, 2)
// "2.5". A knob's readout uses it with the decimals of the knob's step,
// as the browser's toLocaleString does with maximumFractionDigits.
func Fixed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := strconv.FormatFloat(v, 'f', max(decimals, 0), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return Grouped(s)
}

// Whole writes v rounded to a whole number with thousands grouped, as a
// table of milliseconds or a figure from 100 up shows it: "1,024", "-3".
func Whole(v float64) string { return Fixed(math.Round(v), 0) }

// Thousands writes n with comma separators: 8000 → "8,000".
func Thousands(n int) string { return Grouped(strconv.Itoa(n)) }

// Grouped puts thousands separators into the whole part of a number
// written in plain digits: "-16000.25" → "-16,000.25".
func Grouped(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if hasFrac {
		return sign + whole + "." + frac
	}
	return sign + whole
}

// Count writes n of a counted noun given in the singular, with thousands
// grouped as Number does: "1 token", "0 tokens", "1,000 tokens".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Thousands(n) + " " + noun + "s"
}

// TimeFormat writes a group of millisecond figures shown side by side (a
// table, a row of cards) in one unit, so "5593 ms" never sits beside
// "11.3 s". Build it with TimeFormatFor over every figure of the group.
type TimeFormat struct{ seconds bool }

// TimeFormatFor picks the unit for figures ms: seconds when any reaches a
// second, milliseconds otherwise.
func TimeFormatFor(ms ...float64) TimeFormat {
	for _, v := range ms {
		if math.Abs(v) >= 1000 {
			return TimeFormat{seconds: true}
		}
	}
	return TimeFormat{}
}

// Format writes ms in the group's unit: "412 ms"; "0.41 s", "4.57 s",
// "11.3 s".
func (f TimeFormat) Format(ms float64) string {
	if !f.seconds {
		return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
	}
	if math.Abs(ms) >= 10000 {
		return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s"
	}
	return strconv.FormatFloat(ms/1000, 'f', 2, 64) + " s"
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

// NiceStep rounds x up to 1, 2 or 5 times a power of ten: the steps a
// reader adds up in their head, for a histogram's bins and an axis's ticks
// (an axis end takes NiceCeil's finer steps). A relative tolerance keeps
// float noise (0.3/3 is 0.09999999999999999) from skipping to the next
// step. It is 1 for x that is not a positive finite number.
func NiceStep(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}
