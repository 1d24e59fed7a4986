package views

import (
	"context"
	"strconv"
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
	long := labs.Knob{Name: "speedCap", Label: "Late long prompt", Kind: labs.KnobRange, Unit: "tokens", Min: 0, Max: 16000, Step: 250}
	fine := labs.Knob{Name: "speedCap", Label: "Stage time spread", Kind: labs.KnobRange, Min: 0, Max: 1.5, Step: 0.05}
	for _, tc := range []struct {
		name      string
		knob      labs.Knob
		value     string
		want, not []string
	}{
		{"off at 0", capKnob, "0", []string{
			`<output data-text="$lab.speedCap == 0 ? &#34;off&#34; : Number($lab.speedCap).toLocaleString(&#34;en-US&#34;, {maximumFractionDigits: 0})">off</output>`,
			`class="readout-unit" data-show="$lab.speedCap != 0" style="display:none;"> tokens/s</span>`,
			`<span class="range-ends"><span>off</span><span>300 tokens/s</span>`,
			`data-attr-aria-valuetext="$lab.speedCap == 0 ? &#34;off&#34; : Number($lab.speedCap).toLocaleString(&#34;en-US&#34;, {maximumFractionDigits: 0}) + &#34; tokens/s&#34;"`,
		}, []string{">0 tokens/s<", ">0<"}},
		{"a number above 0", capKnob, "30", []string{`>30</output>`, `data-show="$lab.speedCap != 0"> tokens/s</span>`}, []string{"display:none"}},
		{"no zero label", plain, "0", []string{`<output data-text="Number($lab.speedCap).toLocaleString(&#34;en-US&#34;, {maximumFractionDigits: 0})">0</output>`, `<span>0 tokens/s</span>`,
			`data-attr-aria-valuetext="Number($lab.speedCap).toLocaleString(&#34;en-US&#34;, {maximumFractionDigits: 0}) + &#34; tokens/s&#34;"`}, []string{"off", "readout-unit"}},
		// The served readout groups thousands as the browser's
		// toLocaleString does once the slider moves.
		{"thousands", long, "16000", []string{`>16,000</output>`,
			`<output data-text="Number($lab.speedCap).toLocaleString(&#34;en-US&#34;, {maximumFractionDigits: 0})">`,
			`<span>16,000 tokens</span>`, `value="16000"`}, []string{">16000<"}},
		{"a step with decimals", fine, "1.25", []string{`>1.25</output>`, `{maximumFractionDigits: 2}`, `value="1.25"`}, nil},
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

// Every value a knob can take is its minimum plus whole steps; written
// with readoutDecimals it is never rounded, so the served readout (Go)
// and the browser's (toLocaleString, same decimals, same grouping) say the
// same. The shapes are the catalogue's: whole steps, halves, tenths and
// twentieths, and a minimum off the step grid.
func TestReadoutNeverRounds(t *testing.T) {
	for _, tc := range []struct {
		knob labs.Knob
		want int
	}{
		{labs.Knob{Min: 512, Max: 16384, Step: 256}, 0},
		{labs.Knob{Min: 1024, Max: 256 << 10, Step: 1024}, 0},
		{labs.Knob{Min: 0.5, Max: 100, Step: 0.5}, 1},
		{labs.Knob{Min: 3, Max: 6, Step: 0.1}, 1},
		{labs.Knob{Min: 0, Max: 1.5, Step: 0.05}, 2},
		{labs.Knob{Min: 0.25, Max: 10, Step: 1}, 2},
		{labs.Knob{Min: 0, Max: 5}, 0}, // no step: whole numbers
	} {
		k := tc.knob
		if got := readoutDecimals(k); got != tc.want {
			t.Errorf("readoutDecimals(%v..%v step %v) = %d, want %d", k.Min, k.Max, k.Step, got, tc.want)
		}
		step := stepOf(k)
		for i := 0; k.Min+float64(i)*step <= k.Max+1e-9; i++ {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(k.Min+float64(i)*step, 'f', 6, 64), 64) // as the input's value reads
			text := readoutInitial(KnobView{Knob: k, Value: strconv.FormatFloat(v, 'f', -1, 64)})
			back, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", ""), 64)
			if err != nil || back != v {
				t.Fatalf("%v..%v step %v: %v reads %q", k.Min, k.Max, k.Step, v, text)
			}
		}
	}
}
