// Package practice holds the interview drills: estimation templates that
// draw fresh parameters from a seed and compute their answer with the
// engine's and the pipeline's own code, the open questions with rubrics,
// the grading bands and the spaced-review schedule. It knows nothing of
// HTTP or storage.
package practice

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// Kinds of drill.
const (
	KindEstimate = "estimate"
	KindOpen     = "open"
)

// Template is one estimation drill: a question shape whose numbers are
// drawn per attempt.
type Template struct {
	ID     string
	Lesson string // lesson slug
	Title  string
	Unit   Dimension
	Lab    string // lab slug that shows the quantity
	Preset string // the lab preset to start from
	draw   func(r *rand.Rand) (Problem, error)
}

// Problem is one drawn instance of a template.
type Problem struct {
	Question string
	Given    []Fact // the drawn parameters, as shown to the learner
	Answer   float64
	Steps    []Step // the worked solution
	env      env
}

// Fact is one named parameter of a problem.
type Fact struct{ Name, Value string }

// Step is one line of a worked solution: what it finds and the formula
// with the learner's numbers filled in.
type Step struct{ What, Formula string }

// Draw builds the template's problem for a seed; the same seed always
// gives the same problem.
func (t Template) Draw(seed uint64) (Problem, error) {
	h := fnv.New64a()
	h.Write([]byte(t.ID))
	p, err := t.draw(rand.New(rand.NewPCG(seed, h.Sum64())))
	if err != nil {
		return Problem{}, fmt.Errorf("drill %s seed %d: %w", t.ID, seed, err)
	}
	if !(p.Answer > 0) || math.IsInf(p.Answer, 0) {
		return Problem{}, fmt.Errorf("drill %s seed %d: answer %v is not positive", t.ID, seed, p.Answer)
	}
	return p, nil
}

// Format writes a value of the template's dimension for reading.
func (t Template) Format(v float64) string { return formatIn(t.Unit, v) }

// Grading bands: within FullBand of the answer (relative) earns full
// marks; within a factor of PartialFactor either way earns PartialScore.
const (
	FullBand      = 0.25
	PartialFactor = 2.0
	PartialScore  = 0.5
)

// Grade scores an estimate against the answer: 1, PartialScore or 0.
func Grade(estimate, answer float64) float64 {
	switch {
	case answer <= 0 || estimate <= 0:
		return 0
	case math.Abs(estimate-answer) <= FullBand*answer:
		return 1
	case estimate >= answer/PartialFactor && estimate <= answer*PartialFactor:
		return PartialScore
	}
	return 0
}

// Templates lists every estimation template in a stable order.
func Templates() []Template { return slices.Clone(templates) }

// LookupTemplate finds an estimation template by id.
func LookupTemplate(id string) (Template, bool) {
	for _, t := range templates {
		if t.ID == id {
			return t, true
		}
	}
	return Template{}, false
}

// templates joins the per-lesson lists
// in lesson order.
var templates = slices.Concat(
	ttftTemplates, prefillDecodeTemplates, batchingTemplates, moderationTemplates,
	budgetTemplates, streamingTemplates, parallelTemplates, leverTemplates,
	timeoutTemplates, answeringTemplates,
)

// env keeps what a problem was computed from, so tests can recompute the
// answer another way.
type env struct {
	cfg            engine.Config
	prompt, output int
	// A single-stream timing: the answer is extra + the first token of
	// prompt + (tokens − 1) decode steps (only the decode steps when
	// decodeOnly).
	timing     bool
	tokens     int
	extra      float64
	decodeOnly bool

	// What the other drills were drawn from, for the second-path tests:
	// a batch size, the pipeline's stage times, a target, deadline or
	// timeout (limit) with the time already spent, the helper calls'
	// (prompt, output) tokens, a stall's rate (one call in every) and the
	// share of answers abandoned.
	batch        int
	st           stages
	limit, spent time.Duration
	calls        [][2]int
	every        int
	share        float64
}
