package charts

import (
	"math"
	"strconv"
	"strings"
)

// timeToMs gives the factor from a time unit to milliseconds; ok is false
// for units that are not time.
func timeToMs(unit string) (f float64, ok bool) {
	switch strings.TrimSpace(unit) {
	case "ms":
		return 1, true
	case "s", "sec":
		return 1000, true
	case "us", "µs":
		return 0.001, true
	}
	return 0, false
}

// numFmt formats the tick labels of one axis consistently. Time axes carry
// their unit in every label ("350 ms", "2.5 s", chosen from the axis size);
// percentages carry "%"; other numbers are compact ("1.2k") and leave the
// unit to the axis title.
type numFmt struct {
	mul    float64 // data value × mul = displayed number
	suffix string  // appended to each label
	si     bool    // use k/M/G per value
	// titleUnit goes in the axis title when the labels do not carry it.
	titleUnit string
}

// newNumFmt picks the display for an axis in unit whose largest absolute
// value is maxAbs.
func newNumFmt(unit string, maxAbs float64) numFmt {
	unit = strings.TrimSpace(unit)
	if f, ok := timeToMs(unit); ok {
		if maxAbs*f >= 1000 {
			return numFmt{mul: f / 1000, suffix: " s"}
		}
		return numFmt{mul: f, suffix: " ms"}
	}
	if unit == "%" {
		return numFmt{mul: 1, suffix: "%"}
	}
	return numFmt{mul: 1, si: true, titleUnit: unit}
}

// tick formats one tick value given the axis step, with just enough
// decimals to tell neighbouring ticks apart.
func (f numFmt) tick(v, step float64) string {
	v *= f.mul
	step *= f.mul
	div, sfx := 1.0, ""
	if f.si {
		div, sfx = siPrefix(math.Abs(v))
	}
	return trimNum(v/div, decimalsFor(step/div)) + sfx + f.suffix
}

// logTick formats a tick on a log axis, where steps vary per decade.
func (f numFmt) logTick(v float64) string {
	v *= f.mul
	div, sfx := 1.0, ""
	if f.si {
		div, sfx = siPrefix(math.Abs(v))
	}
	return sig3(v/div) + sfx + f.suffix
}

// siPrefix returns the divisor and suffix for compact numbers.
func siPrefix(a float64) (float64, string) {
	switch {
	case a >= 1e9:
		return 1e9, "G"
	case a >= 1e6:
		return 1e6, "M"
	case a >= 1e3:
		return 1e3, "k"
	}
	return 1, ""
}

// decimalsFor returns the fewest decimals (0–6) that represent step exactly.
func decimalsFor(step float64) int {
	step = math.Abs(step)
	if step == 0 || !finite(step) {
		return 0
	}
	for d := 0; d < 6; d++ {
		x := step * math.Pow(10, float64(d))
		if math.Abs(x-math.Round(x)) < 1e-6*math.Max(1, x) {
			return d
		}
	}
	return 6
}

// trimNum formats v with at most dec decimals, dropping trailing zeros and
// the sign of a negative zero.
func trimNum(v float64, dec int) string {
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// sig3 formats v with three significant digits (fewer when they are zeros).
func sig3(v float64) string {
	if v == 0 || !finite(v) {
		return "0"
	}
	mag := int(math.Floor(math.Log10(math.Abs(v))))
	dec := 2 - mag
	if dec < 0 {
		dec = 0
	}
	if dec > 6 {
		dec = 6
	}
	return trimNum(v, dec)
}

// formatValue formats a single measured value for a label or tooltip:
// three significant digits, milliseconds shown as seconds from 1000 ms,
// other units compacted ("1.23k tok/s").
func formatValue(v float64, unit string) string {
	if !finite(v) {
		return "–"
	}
	unit = strings.TrimSpace(unit)
	if f, ok := timeToMs(unit); ok {
		ms := v * f
		if math.Abs(ms) >= 1000 {
			return sig3(ms/1000) + " s"
		}
		return sig3(ms) + " ms"
	}
	if unit == "%" {
		return sig3(v) + "%"
	}
	div, sfx := siPrefix(math.Abs(v))
	s := sig3(v/div) + sfx
	if unit != "" {
		s += " " + unit
	}
	return s
}

// axisTitle joins an axis label and the unit its ticks do not show.
func axisTitle(label string, f numFmt) string {
	label = strings.TrimSpace(label)
	u := f.titleUnit
	switch {
	case u == "" || strings.Contains(strings.ToLower(label), "("+strings.ToLower(u)+")"):
		return label
	case label == "":
		return u
	case strings.EqualFold(label, u):
		return label
	}
	return label + " (" + u + ")"
}

// markText is the label of a reference mark: its own label, followed by
// its position unless the label already states a number ("p95" does not,
// "first word at 412 ms" does).
func markText(m string, at float64, unit string) string {
	m = strings.TrimSpace(m)
	for _, w := range strings.Fields(m) {
		if w[0] >= '0' && w[0] <= '9' {
			return m
		}
	}
	v := formatValue(at, unit)
	if m == "" {
		return v
	}
	return m + " " + v
}
