package web

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views"
)

// labView builds the runner model for one lab: knobs with their signals,
// presets as signal assignments, defaults as data-signals, and the
// learner's recent runs.
func (s *Server) labView(c echo.Context, lab labs.Lab, heading int) (views.Lab, error) {
	info := lab.Info()
	ids := idsFor(info.Slug)
	knobs := lab.Knobs()
	defaults := labs.Values{}
	for _, k := range knobs {
		defaults[k.Name] = k.Default
	}
	sigs := map[string]any{ids.NS: defaults, ids.Guess: "", ids.Guess2: "", ids.Busy: false, ids.Note: "", ids.Skip: false, ids.Width: 0, ids.Token: ""}
	if s.offersEngines(info.Slug) {
		sigs[engineSignal(ids)] = labs.EngineBundled
	}
	signals, err := json.Marshal(sigs)
	if err != nil {
		return views.Lab{}, fmt.Errorf("lab %s: signals: %w", info.Slug, err)
	}
	v := views.Lab{
		Info:      info,
		Prefix:    ids.Prefix,
		Signals:   string(signals),
		NS:        ids.NS,
		NoteSig:   ids.Note,
		GuessSig:  ids.Guess,
		Guess2Sig: ids.Guess2,
		BusySig:   ids.Busy,
		SkipSig:   ids.Skip,
		WidthSig:  ids.Width,
		TokenSig:  ids.Token,
		RunURL:    "/labs/" + info.Slug + "/run",
		StopURL:   "/labs/" + info.Slug + "/stop",
		Heading:   heading,
		// A tall column of knobs would push Run far from the results;
		// past a handful, the controls go above the panels in a grid.
		Wide:     len(knobs) > 6,
		Fidelity: s.fidelity.note(),
	}
	if s.offersEngines(info.Slug) {
		v.Knobs = append(v.Knobs, s.engineKnob(ids))
	}
	for _, k := range knobs {
		v.Knobs = append(v.Knobs, views.KnobView{
			Knob:   k,
			Signal: ids.NS + "." + k.Name,
			ErrID:  ids.Prefix + "-err-" + k.Name,
			Value:  valueText(k, defaults[k.Name]),
		})
	}
	for _, p := range lab.Presets() {
		pv, err := presetView(ids, knobs, p)
		if err != nil {
			return views.Lab{}, fmt.Errorf("lab %s: %w", info.Slug, err)
		}
		v.Presets = append(v.Presets, pv)
	}
	if heading == 1 {
		v.Taught = s.taughtIn(info.Slug, info.Lesson)
	}
	v.Runs, err = s.runList(c.Request().Context(), learnerID(c), lab)
	if err != nil {
		return views.Lab{}, err
	}
	return v, nil
}

// presetView turns a preset into one Datastar expression that sets every
// knob, so a preset gives the same settings whichever preset ran before. A
// preset is a value of the lab's params, checked when the lab was built;
// its values are JSON-encoded, so the expression holds only literals.
func presetView(ids labIDs, knobs []labs.Knob, p labs.Preset) (views.PresetView, error) {
	var parts []string
	for _, k := range knobs {
		v, ok := p.Values[k.Name]
		if !ok {
			return views.PresetView{}, fmt.Errorf("preset %q: no value for %s", p.Name, k.Name)
		}
		lit, err := json.Marshal(v)
		if err != nil {
			return views.PresetView{}, fmt.Errorf("preset %q: %w", p.Name, err)
		}
		parts = append(parts, "$"+ids.NS+"."+k.Name+" = "+string(lit))
	}
	if len(parts) > 0 {
		note, err := json.Marshal(p.Note)
		if err != nil {
			return views.PresetView{}, fmt.Errorf("preset %q: %w", p.Name, err)
		}
		parts = append(parts, "$"+ids.Note+" = "+string(note))
	}
	return views.PresetView{Name: p.Name, Note: p.Note, OnClick: strings.Join(parts, "; ")}, nil
}

// valueText shows a knob value the way the learner set it.
func valueText(k labs.Knob, v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// displayValue is valueText for humans: units, option labels, on/off.
func displayValue(k labs.Knob, v any) string {
	switch k.Kind {
	case labs.KnobRange:
		f, ok := v.(float64)
		if !ok {
			return fmt.Sprint(v)
		}
		if f == 0 && k.ZeroLabel != "" {
			return k.ZeroLabel // "Model speed cap off", as the knob reads at 0
		}
		return views.FormatValue(f, k.Unit)
	case labs.KnobBool:
		if b, _ := v.(bool); b {
			return "on"
		}
		return "off"
	case labs.KnobEnum:
		s, _ := v.(string)
		for _, o := range k.Options {
			if o.Value == s {
				return o.Label
			}
		}
		return s
	}
	return fmt.Sprint(v)
}
