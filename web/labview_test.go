package web

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// A saved run's settings read as the knob does: a range whose 0 switches
// something off says so, not "0 tokens/s".
func TestDisplayValue(t *testing.T) {
	capKnob := labs.Knob{Name: "cap", Label: "Model speed cap", Kind: labs.KnobRange, Unit: "tokens/s", Min: 0, Max: 300, ZeroLabel: "off"}
	plain := labs.Knob{Name: "n", Label: "Requests", Kind: labs.KnobRange, Unit: "requests", Min: 0, Max: 10}
	for _, tc := range []struct {
		name string
		k    labs.Knob
		v    any
		want string
	}{
		{"zero label at 0", capKnob, 0.0, "off"},
		{"zero label above 0", capKnob, 30.0, "30 tokens/s"},
		{"no zero label at 0", plain, 0.0, "0 requests"},
		{"bool", labs.Knob{Kind: labs.KnobBool}, true, "on"},
		{"enum label", labs.Knob{Kind: labs.KnobEnum, Options: []labs.Option{{Value: "a", Label: "Alpha"}}}, "a", "Alpha"},
	} {
		if got := displayValue(tc.k, tc.v); got != tc.want {
			t.Errorf("%s: displayValue = %q, want %q", tc.name, got, tc.want)
		}
	}
}
