// Package labs is the catalogue of interactive labs. A lab describes its
// knobs and presets, validates a learner's settings and runs real requests
// through the engine or the pipeline, emitting plain-data frames that the web
// layer draws. Labs never produce HTML and the web layer never calls the
// engine: frames are the only thing that crosses that line.
//
// A lab is declared once with Define: a params struct that is the page's
// Datastar signals, a knob bound to each field with Bind, presets as values
// of the struct and a Run that receives decoded, validated params. Adding a
// knob is one field, its Bind line and its use in Run.
package labs

import (
	"context"
	"fmt"
	"sort"
)

// Lab is one interactive experiment. Implementations are registered in a
// Catalog and driven by the web layer's lab runner.
type Lab interface {
	// Info describes the lab for listings and its page.
	Info() Info
	// Knobs lists the settings a learner can change, in display order.
	Knobs() []Knob
	// Presets lists named settings worth trying; the first is the default view.
	Presets() []Preset
	// Decode reads a learner's settings (the lab's signal object: numbers
	// as float64 or numeric strings, enums as strings, bools as bools or
	// "true"/"false"; missing knobs keep their defaults) and validates them,
	// once: it returns a Run ready to start, or one FieldError per bad knob
	// and per name that is not a knob, every one of them.
	Decode(raw map[string]any) (Run, []FieldError)
}

// Run is one validated run of a lab, ready to start.
type Run struct {
	// Values are the settings the run uses, every knob set; the run list
	// stores them.
	Values Values
	// Start executes the run, calling emit for every frame. The last frame
	// emitted must have Final set. Start returns when the run is complete
	// or ctx is done; emit is never called after Start returns.
	Start func(ctx context.Context, emit func(Frame)) error
}

// Info is a lab's catalogue entry.
type Info struct {
	Slug    string // URL segment: /labs/{slug}
	Title   string
	Summary string // one or two sentences for listings
	Lesson  string // slug of the lesson that embeds this lab, if any
	// Prediction asks the learner to commit to a guess before running,
	// e.g. "What time to first token do you expect?". Empty means none.
	Prediction     string
	PredictionUnit string // unit of the guess, e.g. "ms"
	// PredictionStat names the Stat (by Key) the guess is compared with.
	PredictionStat string
	// Second is a second number to predict, where the lesson's "Try it"
	// asks for two; the zero value asks for one.
	Second SecondPrediction
}

// SecondPrediction is a lab's second guess: its question, the unit of the
// answer and the Stat (by Key) it is compared with.
type SecondPrediction struct {
	Prediction string
	Unit       string
	Stat       string
}

// Catalog holds the registered labs in display order.
type Catalog struct {
	labs   []Lab
	bySlug map[string]Lab
}

// NewCatalog builds a catalogue; slugs must be unique.
func NewCatalog(ls ...Lab) (*Catalog, error) {
	c := &Catalog{bySlug: map[string]Lab{}}
	for _, l := range ls {
		slug := l.Info().Slug
		if _, dup := c.bySlug[slug]; dup {
			return nil, fmt.Errorf("catalog: duplicate lab slug %q", slug)
		}
		c.bySlug[slug] = l
		c.labs = append(c.labs, l)
	}
	return c, nil
}

// All returns the labs in registration order.
func (c *Catalog) All() []Lab { return append([]Lab(nil), c.labs...) }

// Get finds a lab by slug.
func (c *Catalog) Get(slug string) (Lab, bool) {
	l, ok := c.bySlug[slug]
	return l, ok
}

// Slugs returns the registered slugs, sorted, for error messages.
func (c *Catalog) Slugs() []string {
	out := make([]string, 0, len(c.labs))
	for s := range c.bySlug {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
