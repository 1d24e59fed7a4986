package views

import (
	"encoding/json"

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
		return "$" + k.Signal
	}
	return "$" + k.Signal + " == 0 ? " + jsString(k.Knob.ZeroLabel) + " : $" + k.Signal
}

// readoutInitial is the readout's number before scripts run.
func readoutInitial(k KnobView) string {
	if k.Knob.ZeroLabel != "" && k.Value == "0" {
		return k.Knob.ZeroLabel
	}
	return k.Value
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
