package views

import (
	"context"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// A range whose 0 switches something off reads "off" at 0, in the served
// HTML and in the browser's expression, with no unit after it; any other
// value, and any knob without a zero label, reads as a number and unit.
func TestKnobReadoutAtZero(t *testing.T) {
	capKnob := labs.Knob{Name: "speedCap", Label: "Model speed cap", Kind: labs.KnobRange, Unit: "tokens/s", Min: 0, Max: 300, Step: 10, ZeroLabel: "off"}
	plain := capKnob
	plain.ZeroLabel = ""
	for _, tc := range []struct {
		name      string
		knob      labs.Knob
		value     string
		want, not []string
	}{
		{"off at 0", capKnob, "0", []string{
			`<output data-text="$lab.speedCap == 0 ? &#34;off&#34; : $lab.speedCap">off</output>`,
			`class="readout-unit" data-show="$lab.speedCap != 0" style="display:none;"> tokens/s</span>`,
			`<span class="range-ends"><span>off</span><span>300 tokens/s</span>`,
			`data-attr-aria-valuetext="$lab.speedCap == 0 ? &#34;off&#34; : $lab.speedCap + &#34; tokens/s&#34;"`,
		}, []string{">0 tokens/s<", ">0<"}},
		{"a number above 0", capKnob, "30", []string{`>30</output>`, `data-show="$lab.speedCap != 0"> tokens/s</span>`}, []string{"display:none"}},
		{"no zero label", plain, "0", []string{`<output data-text="$lab.speedCap">0</output>`, `<span>0 tokens/s</span>`,
			`data-attr-aria-valuetext="$lab.speedCap + &#34; tokens/s&#34;"`}, []string{"off", "readout-unit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			k := KnobView{Knob: tc.knob, Signal: "lab.speedCap", ErrID: "e", Value: tc.value}
			if err := knob(Lab{Prefix: "lab"}, k).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			for _, w := range tc.want {
				if !strings.Contains(html, w) {
					t.Errorf("missing %s in\n%s", w, html)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(html, n) {
					t.Errorf("has %s in\n%s", n, html)
				}
			}
		})
	}
}
