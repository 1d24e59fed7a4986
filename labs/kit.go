package labs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// Params is the contract of a lab's params struct: the struct is the lab's
// Datastar signals, one field per knob, and Check holds the rules that span
// knobs (a model must fit the chosen GPU). The kit calls Check once every
// field is in range, so Check may rely on each knob's own range.
type Params interface {
	Check() []FieldError
}

// Spec declares a lab once: its catalogue entry, its params' defaults, a
// knob bound to each field, presets as values of P, and what a run does.
// Define derives everything the web layer needs from it.
type Spec[P Params] struct {
	Info Info
	// Defaults are the settings a page opens with; each knob's default is
	// read from here.
	Defaults P
	Knobs    []Field[P]
	// Presets are settings worth trying; the first is the default view.
	Presets []Example[P]
	// Run executes one run with decoded, validated params (see Lab).
	Run func(ctx context.Context, p P, emit func(Frame)) error
}

// Example is a named preset: a value of P, so a preset with a missing or
// mistyped field does not compile. Build it from the defaults
// (p := defaults; p.Rate = 8) so it sets every knob.
type Example[P any] struct {
	Name   string
	Note   string // what to look for when running it
	Params P
}

// Kit is a lab built from a Spec: it implements Lab, decodes a learner's
// signals into P with every field error joined, and runs P. Safe for
// concurrent use.
type Kit[P Params] struct {
	info     Info
	defaults P
	fields   []Field[P]
	knobs    []Knob
	presets  []Preset
	run      func(ctx context.Context, p P, emit func(Frame)) error
}

// Define checks a Spec and builds its Kit. A Spec that a learner could
// never run (a default or preset out of range or failing Check, a knob
// declared twice, no Run) is an error here, when the lab is built, rather
// than on a learner's first run.
func Define[P Params](s Spec[P]) (*Kit[P], error) {
	k := &Kit[P]{info: s.Info, defaults: s.Defaults, fields: s.Knobs, run: s.Run}
	if err := k.check(s); err != nil {
		return nil, fmt.Errorf("lab %s: %w", s.Info.Slug, err)
	}
	return k, nil
}

func (k *Kit[P]) check(s Spec[P]) error {
	if s.Info.Slug == "" {
		return errors.New("no slug")
	}
	if s.Run == nil {
		return errors.New("no Run")
	}
	if s.Info.Prediction != "" && (s.Info.PredictionStat == "" || s.Info.PredictionUnit == "") {
		return errors.New("a prediction needs the stat it is compared with and its unit")
	}
	if sp := s.Info.Second; sp.Prediction != "" && (s.Info.Prediction == "" || sp.Stat == "" || sp.Unit == "" || sp.Stat == s.Info.PredictionStat) {
		return errors.New("a second prediction needs a first, its own stat and its unit")
	}
	seen := map[string]bool{}
	for _, f := range s.Knobs {
		if f.err != nil {
			return fmt.Errorf("knob %s: %w", f.knob.Name, f.err)
		}
		if f.knob.Name == "" || seen[f.knob.Name] {
			return fmt.Errorf("knob %q: empty or declared twice", f.knob.Name)
		}
		seen[f.knob.Name] = true
		knob := f.knob
		knob.Default = f.get(&s.Defaults)
		k.knobs = append(k.knobs, knob)
	}
	if _, errs := k.decode(k.Values(s.Defaults)); len(errs) > 0 {
		return fmt.Errorf("defaults: %w", JoinFieldErrors(errs))
	}
	for _, ex := range s.Presets {
		vals := k.Values(ex.Params)
		if _, errs := k.decode(vals); len(errs) > 0 {
			return fmt.Errorf("preset %q: %w", ex.Name, JoinFieldErrors(errs))
		}
		k.presets = append(k.presets, Preset{Name: ex.Name, Note: ex.Note, Values: vals})
	}
	return nil
}

// Info describes the lab.
func (k *Kit[P]) Info() Info { return k.info }

// Knobs lists the settings, in display order, with defaults filled in.
func (k *Kit[P]) Knobs() []Knob { return slices.Clone(k.knobs) }

// Presets lists the named settings; each sets every knob.
func (k *Kit[P]) Presets() []Preset { return slices.Clone(k.presets) }

// Values are p as signal values keyed by knob name: what the page sets and
// the run list stores.
func (k *Kit[P]) Values(p P) Values {
	v := Values{}
	for _, f := range k.fields {
		v[f.knob.Name] = f.get(&p)
	}
	return v
}

// Decode reads a learner's settings (see Lab.Decode).
func (k *Kit[P]) Decode(raw map[string]any) (Run, []FieldError) {
	p, errs := k.decode(raw)
	if len(errs) > 0 {
		return Run{}, errs
	}
	return Run{Values: k.Values(p), Start: func(ctx context.Context, emit func(Frame)) error {
		return k.run(ctx, p, emit)
	}}, nil
}

// Params decodes raw into P, or returns every field error joined.
func (k *Kit[P]) Params(raw map[string]any) (P, error) {
	p, errs := k.decode(raw)
	return p, JoinFieldErrors(errs)
}

// Run decodes raw and runs it. Settings a learner could fix end the run
// with one NotRun frame and a nil error, as the web layer would show them.
func (k *Kit[P]) Run(ctx context.Context, raw map[string]any, emit func(Frame)) error {
	r, errs := k.Decode(raw)
	if len(errs) > 0 {
		emit(NotRun(JoinFieldErrors(errs)))
		return nil
	}
	return r.Start(ctx, emit)
}

// decode starts from the defaults, sets each knob raw holds and refuses
// names that are not knobs, collecting one error per bad field; Check runs
// once every field is in range.
func (k *Kit[P]) decode(raw map[string]any) (P, []FieldError) {
	p := k.defaults
	var errs []FieldError
	var unknown []string
	for name := range raw {
		if !slices.ContainsFunc(k.fields, func(f Field[P]) bool { return f.knob.Name == name }) {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		errs = append(errs, FieldError{Knob: name, Message: fmt.Sprintf("%q is not a setting of this lab.", name)})
	}
	for i, f := range k.fields {
		r, ok := raw[f.knob.Name]
		if !ok || r == nil {
			continue
		}
		val, err := coerce(k.knobs[i], r)
		if err != nil {
			errs = append(errs, FieldError{Knob: f.knob.Name, Message: err.Error()})
			continue
		}
		f.set(&p, val)
	}
	if len(errs) > 0 {
		return p, errs
	}
	return p, p.Check()
}
