package views

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/a-h/templ"

	"github.com/latencylab/latencylab/labs"
)

// A range knob's readout: its value and unit, or, for a knob whose 0
// switches something off (labs.Knob.ZeroLabel), that word at 0 and no
// unit. The same rule runs in the browser (Datastar expressions) and in
// the HTML served before scripts run.

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// readoutExpr is the Datastar expression of the readout's number.
func readoutExpr(k KnobView) string {
	if k.Knob.ZeroLabel == "" {
		return readoutNumber(k)
	}
	return "$" + k.Signal + " == 0 ? " + jsString(k.Knob.ZeroLabel) + " : " + readoutNumber(k)
}

// readoutNumber is the browser's copy of labs.Fixed for the knob's value
// with readoutDecimals: thousands grouped, so the readout says "16,000"
// after the slider moves as it did when the page was served. Number()
// because a bound input may hand the signal over as a string.
func readoutNumber(k KnobView) string {
	return "Number($" + k.Signal + ").toLocaleString(\"en-US\", {maximumFractionDigits: " + strconv.Itoa(readoutDecimals(k.Knob)) + "})"
}

// readoutDecimals is how many decimals a knob's values can have: those of
// its step and of its minimum, since every value is the minimum plus
// whole steps. Shown with that many, a value is never rounded, so the
// served text and the browser's agree.
func readoutDecimals(k labs.Knob) int {
	d := 0
	for _, x := range []float64{k.Step, k.Min} {
		for d < 6 && math.Abs(x*math.Pow10(d)-math.Round(x*math.Pow10(d))) > 1e-9 {
			d++
		}
	}
	return d
}

// readoutInitial is the readout's number before scripts run.
func readoutInitial(k KnobView) string {
	if k.Knob.ZeroLabel != "" && k.Value == "0" {
		return k.Knob.ZeroLabel
	}
	v, err := strconv.ParseFloat(k.Value, 64)
	if err != nil {
		return k.Value
	}
	return labs.Fixed(v, readoutDecimals(k.Knob))
}

// unitShowExpr is when the readout shows its unit ("" when always).
func unitShowExpr(k KnobView) string {
	if k.Knob.ZeroLabel == "" {
		return ""
	}
	return "$" + k.Signal + " != 0"
}

// unitAttrs hide the unit before scripts run when the knob starts off
// (data-show takes over from the inline style once Datastar loads).
func unitAttrs(k KnobView) templ.Attributes {
	if k.Knob.ZeroLabel != "" && k.Value == "0" {
		return templ.Attributes{"style": "display:none"}
	}
	return nil
}

// rangeEndText labels one end of a range knob's track.
func rangeEndText(k labs.Knob, v float64) string {
	if v == 0 && k.ZeroLabel != "" {
		return k.ZeroLabel
	}
	return FormatValue(v, k.Unit)
}
