package streaming

import (
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

func TestInfoAndKnobs(t *testing.T) {
	l := labtest.Inert(t, define)
	labtest.CheckDeclaration(t, l, labtest.Entry{Slug: "streaming", Lesson: "time-to-first-token", PredictionStat: statFirstWord, PredictionUnit: "ms",
		Presets: []string{"Streaming on an H100", "Blocking on an H100", "Long answer on an L4", "Huge prompt", "Streamed 4 s vs blocked 2 s, side by side", hostedPreset}})
	want := labs.Values{knobStreaming: true, knobAnswer: 300.0, knobPrompt: 1000.0,
		knobModel: "llama-3.1-8b", knobGPU: "h100-sxm", knobReading: 4.5, knobSpeedCap: 0.0, knobSide: false,
		pipelinelab.KnobRTT: 0.0, pipelinelab.KnobFresh: false, pipelinelab.KnobTenants: 0.0, pipelinelab.KnobTraffic: 4.0}
	got := labtest.Defaults(l)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("default %s = %v, want %v", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d knobs, want %d", len(got), len(want))
	}
	gpu := l.Knobs()[4]
	if gpu.Name != knobGPU || len(gpu.Options) != len(engine.HardwareNames()) {
		t.Errorf("GPU knob %+v does not list every GPU", gpu)
	}
}

// The first preset is the default view. (CheckDeclaration in
// TestInfoAndKnobs checks every preset's name, note and values.)
func TestPresetsAreValid(t *testing.T) {
	l := labtest.Inert(t, define)
	ps := l.Presets()
	if labtest.Defaults(l)[knobStreaming] != ps[0].Values[knobStreaming] {
		t.Error("the first preset is not the default view")
	}
}

func TestCountWords(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0}, {"  ", 0}, {"one", 1}, {" one", 1}, {"one two", 2},
		{"one\ntwo\tthree ", 3}, {"half-word", 1}, {"The first words usually", 4},
	}
	for _, tc := range tests {
		if got := countWords(tc.in); got != tc.want {
			t.Errorf("countWords(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{0, 1}, {-3, 1}, {1, 1}, {1.1, 1.2}, {2600, 3000}, {3010, 4000}, {8001, 10000}, {0.013, 0.015},
	}
	for _, tc := range tests {
		if got := labs.NiceCeil(tc.in); !labtest.Near(got, tc.want) {
			t.Errorf("labs.NiceCeil(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestFormatting(t *testing.T) {
	tests := []struct{ got, want string }{
		{labs.Thousands(8000), "8,000"}, {labs.Thousands(50), "50"}, {labs.Thousands(1234567), "1,234,567"},
		{labs.FormatMS(412.4), "412 ms"}, {labs.FormatMS(2414), "2.41 s"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestEveryModelFitsSomeGPU: each model the lab offers runs on at least one
// GPU it offers, and every model that fits one is offered.
func TestEveryModelFitsSomeGPU(t *testing.T) {
	l := labtest.Inert(t, define)
	model := l.Knobs()[3]
	if model.Name != knobModel {
		t.Fatalf("knob 3 is %s, want the model", model.Name)
	}
	offered := map[string]bool{}
	for _, o := range model.Options {
		offered[o.Value] = true
	}
	for _, m := range engine.ModelNames() {
		fits := false
		for _, g := range engine.HardwareNames() {
			if errs := labtest.FieldErrors(l, labs.Values{knobModel: m, knobGPU: g}); errs == nil {
				fits = true
			}
		}
		if fits != offered[m] {
			t.Errorf("model %s: fits some GPU %v, offered %v", m, fits, offered[m])
		}
	}
	// In BF16 the 70B model's 141 GB of weights fit one MI300X (192 GB)
	// and no other GPU here, so it is offered and only that GPU runs it.
	if !offered["llama-3.1-70b"] {
		t.Error("the 70B model is not offered, yet an MI300X holds it in BF16")
	}
	for _, g := range engine.HardwareNames() {
		errs := labtest.FieldErrors(l, labs.Values{knobModel: "llama-3.1-70b", knobGPU: g})
		if fits := errs == nil; fits != (g == "mi300x") {
			t.Errorf("70B in BF16 on one %s: fits %v, want only the MI300X to hold it", g, fits)
		}
	}
}
