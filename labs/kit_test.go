package labs

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// toyParams is a lab's params as the kit sees them: one field per knob
// kind, and a rule across two knobs.
type toyParams struct {
	Tokens int
	Speed  float64
	Mode   string
	Loud   bool
}

func (p toyParams) Check() []FieldError {
	if p.Loud && p.Mode == "quiet" {
		return []FieldError{{Knob: "loud", Message: "A quiet mode cannot be loud."}}
	}
	return nil
}

var toyDefaults = toyParams{Tokens: 300, Speed: 4.5, Mode: "words"}

func toyKnobs() []Field[toyParams] {
	return []Field[toyParams]{
		Bind(Knob{Name: "tokens", Label: "Tokens", Unit: "tokens", Min: 50, Max: 1000, Step: 10}, func(p *toyParams) *int { return &p.Tokens }),
		Bind(Knob{Name: "speed", Label: "Speed", Min: 3, Max: 6, Step: 0.1}, func(p *toyParams) *float64 { return &p.Speed }),
		Bind(Knob{Name: "mode", Label: "Mode", Options: []Option{{Value: "words", Label: "Words"}, {Value: "quiet", Label: "Quiet"}}},
			func(p *toyParams) *string { return &p.Mode }),
		Bind(Knob{Name: "loud", Label: "Loud"}, func(p *toyParams) *bool { return &p.Loud }),
	}
}

// toySpec runs by recording the params it was given.
func toySpec(got *toyParams) Spec[toyParams] {
	long := toyDefaults
	long.Tokens = 1000
	return Spec[toyParams]{
		Info:     Info{Slug: "toy", Title: "Toy"},
		Defaults: toyDefaults,
		Knobs:    toyKnobs(),
		Presets:  []Example[toyParams]{{Name: "Default", Params: toyDefaults}, {Name: "Long", Note: "n", Params: long}},
		Run: func(_ context.Context, p toyParams, emit func(Frame)) error {
			*got = p
			emit(Frame{Final: true})
			return nil
		},
	}
}

func TestDefineDerivesKnobsAndPresets(t *testing.T) {
	var got toyParams
	k, err := Define(toySpec(&got))
	if err != nil {
		t.Fatal(err)
	}
	kinds := []KnobKind{KnobRange, KnobRange, KnobEnum, KnobBool}
	defaults := []any{300.0, 4.5, "words", false}
	for i, kn := range k.Knobs() {
		if kn.Kind != kinds[i] || kn.Default != defaults[i] {
			t.Errorf("knob %s: kind %s default %v, want %s %v", kn.Name, kn.Kind, kn.Default, kinds[i], defaults[i])
		}
	}
	ps := k.Presets()
	if len(ps) != 2 || ps[1].Name != "Long" || ps[1].Values["tokens"] != 1000.0 || len(ps[1].Values) != 4 {
		t.Errorf("presets %+v", ps)
	}
}

func TestDefineRefusesBadSpecs(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Spec[toyParams])
		want   string
	}{
		{"no slug", func(s *Spec[toyParams]) { s.Info.Slug = "" }, "no slug"},
		{"no run", func(s *Spec[toyParams]) { s.Run = nil }, "no Run"},
		{"prediction without a stat", func(s *Spec[toyParams]) { s.Info.Prediction = "Guess?" }, "prediction"},
		{"second prediction without a first", func(s *Spec[toyParams]) {
			s.Info.Second = SecondPrediction{Prediction: "And?", Unit: "ms", Stat: "b"}
		}, "second prediction"},
		{"second prediction on the first's stat", func(s *Spec[toyParams]) {
			s.Info.Prediction, s.Info.PredictionUnit, s.Info.PredictionStat = "Guess?", "ms", "a"
			s.Info.Second = SecondPrediction{Prediction: "And?", Unit: "ms", Stat: "a"}
		}, "second prediction"},
		{"second prediction without a unit", func(s *Spec[toyParams]) {
			s.Info.Prediction, s.Info.PredictionUnit, s.Info.PredictionStat = "Guess?", "ms", "a"
			s.Info.Second = SecondPrediction{Prediction: "And?", Stat: "b"}
		}, "second prediction"},
		{"default out of range", func(s *Spec[toyParams]) { s.Defaults.Tokens = 5 }, "defaults"},
		{"default failing Check", func(s *Spec[toyParams]) { s.Defaults.Mode, s.Defaults.Loud = "quiet", true }, "quiet mode"},
		{"preset out of range", func(s *Spec[toyParams]) { s.Presets[1].Params.Speed = 9 }, `preset "Long"`},
		{"knob twice", func(s *Spec[toyParams]) { s.Knobs = append(s.Knobs, s.Knobs[0]) }, "declared twice"},
		{"enum without options", func(s *Spec[toyParams]) {
			s.Knobs[2] = Bind(Knob{Name: "mode", Label: "Mode"}, func(p *toyParams) *string { return &p.Mode })
		}, "options"},
		{"zero label on a range that never reaches 0", func(s *Spec[toyParams]) {
			s.Knobs[0] = Bind(Knob{Name: "tokens", Label: "Tokens", Min: 50, Max: 1000, Step: 10, ZeroLabel: "off"}, func(p *toyParams) *int { return &p.Tokens })
		}, "zero label"},
		{"zero label on a switch", func(s *Spec[toyParams]) {
			s.Knobs[3] = Bind(Knob{Name: "loud", Label: "Loud", ZeroLabel: "off"}, func(p *toyParams) *bool { return &p.Loud })
		}, "zero label"},
		{"kind mismatch", func(s *Spec[toyParams]) {
			s.Knobs[3] = Bind(Knob{Name: "loud", Label: "Loud", Kind: KnobRange}, func(p *toyParams) *bool { return &p.Loud })
		}, "bound to a bool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got toyParams
			s := toySpec(&got)
			tc.change(&s)
			_, err := Define(s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Define = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name     string
		raw      map[string]any
		want     toyParams
		errKnobs []string // every knob with an error, in order
	}{
		{"nothing keeps the defaults", nil, toyDefaults, nil},
		{"numbers as strings, as range inputs send them", map[string]any{"tokens": "500", "speed": "3.5", "loud": "true"},
			toyParams{Tokens: 500, Speed: 3.5, Mode: "words", Loud: true}, nil},
		{"ints round", map[string]any{"tokens": 499.6}, toyParams{Tokens: 500, Speed: 4.5, Mode: "words"}, nil},
		{"every field error, not the first", map[string]any{"tokens": 5.0, "speed": "fast", "mode": "loud"}, toyParams{},
			[]string{"tokens", "speed", "mode"}},
		{"a misspelt name is refused", map[string]any{"token": 500.0, "tokens": 500.0}, toyParams{}, []string{"token"}},
		{"cross-field check", map[string]any{"mode": "quiet", "loud": true}, toyParams{}, []string{"loud"}},
		{"no cross-field check on out-of-range values", map[string]any{"mode": "quiet", "loud": true, "tokens": 1.0}, toyParams{},
			[]string{"tokens"}},
		{"NaN", map[string]any{"speed": "NaN"}, toyParams{}, []string{"speed"}},
		{"bool as a number", map[string]any{"loud": 1.0}, toyParams{}, []string{"loud"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got toyParams
			k, err := Define(toySpec(&got))
			if err != nil {
				t.Fatal(err)
			}
			run, errs := k.Decode(tc.raw)
			var knobs []string
			for _, e := range errs {
				knobs = append(knobs, e.Knob)
				if e.Message == "" {
					t.Errorf("error on %s has no message", e.Knob)
				}
			}
			if !slices.Equal(knobs, tc.errKnobs) {
				t.Fatalf("errors %v, want on %v", errs, tc.errKnobs)
			}
			if len(errs) > 0 {
				return
			}
			if err := run.Start(context.Background(), func(Frame) {}); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("run got %+v, want %+v", got, tc.want)
			}
			if run.Values["tokens"] != float64(tc.want.Tokens) || run.Values["mode"] != tc.want.Mode {
				t.Errorf("values %v do not match %+v", run.Values, tc.want)
			}
		})
	}
}

func TestKitRunEndsBadSettingsInOneFrame(t *testing.T) {
	var got toyParams
	k, err := Define(toySpec(&got))
	if err != nil {
		t.Fatal(err)
	}
	var frames []Frame
	if err := k.Run(context.Background(), map[string]any{"tokens": 5.0, "speed": 9.0}, func(f Frame) { frames = append(frames, f) }); err != nil {
		t.Fatal(err)
	}
	if len(frames) != 1 || !frames[0].Final || strings.Count(frames[0].Error, "\n") != 1 ||
		!strings.Contains(frames[0].Error, "Tokens must be between 50 and 1,000 tokens") || strings.Contains(frames[0].Error, "tokens:") {
		t.Errorf("frames %+v, want one final frame with both messages and no knob names", frames)
	}
	if _, err := k.Params(map[string]any{"speed": 9.0}); !errors.As(err, new(FieldError)) {
		t.Errorf("Params error %v is not a FieldError", err)
	}
}

// FuzzDecode feeds the decoder any JSON-like values: it must return params
// or field errors, never panic, and accept only values within the knobs.
func FuzzDecode(f *testing.F) {
	f.Add("tokens", "500", 3.5, true)
	f.Add("speed", "NaN", -1.0, false)
	f.Add("mode", "quiet", 1e308, true)
	f.Add("x", "", 0.0, false)
	var got toyParams
	k, err := Define(toySpec(&got))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name, s string, x float64, b bool) {
		for _, raw := range []map[string]any{{name: s}, {name: x}, {name: b}, {"tokens": s, "speed": x, "loud": b}} {
			p, err := k.Params(raw)
			if err != nil {
				continue
			}
			if p.Tokens < 50 || p.Tokens > 1000 || !(p.Speed >= 3 && p.Speed <= 6) || (p.Mode != "words" && p.Mode != "quiet") {
				t.Errorf("%v decoded to %+v, out of range", raw, p)
			}
		}
	})
}
