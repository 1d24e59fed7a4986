// Package views holds the site's templ components: the layout, the home,
// lesson and lab pages, the lab runner's panels (patched over SSE while a run
// streams) and the error pages. Components take plain view models built by
// the web package; they never reach the store or the engine.
package views

import (
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/lessons"
	"math"
)

// Page is what the layout needs for every page.
type Page struct {
	Title       string // the page's own title; the site name is appended
	Description string // meta description
	Section     string // "home", "lessons", "labs": highlights the nav entry
	CSSURL      string // content-hashed stylesheet URL
	JSURL       string // content-hashed Datastar URL; empty on pages with no lab
	Engine      string // default engine profile, e.g. "llama-3.1-8b on h100-sxm"
}

// FullTitle is the <title> text.
func (p Page) FullTitle() string {
	if p.Title == "" {
		return "Latency Lab"
	}
	return p.Title + " · Latency Lab"
}

// Progress is how far a learner is through the course.
type Progress struct {
	Done  int
	Total int
}

// Percent is Done as a whole percentage of Total.
func (p Progress) Percent() int {
	if p.Total == 0 {
		return 0
	}
	return p.Done * 100 / p.Total
}

// LessonItem is one lesson in a listing.
type LessonItem struct {
	Lesson lessons.Lesson
	Done   bool
	HasLab bool // at least one of its labs is installed
}

// LabItem is one lab in a listing.
type LabItem struct {
	Info labs.Info
	// Taught are the lessons that teach the lab, its own first.
	Taught []LessonLink
}

// LessonLink names a lesson for a link to it.
type LessonLink struct {
	Slug, Title string
}

// Home is the home page's model.
type Home struct {
	Progress Progress
	Lessons  []LessonItem
	Labs     []LabItem
	// Next is the first lesson not yet done, if any.
	Next *lessons.Lesson
	// PracticeDue is how many practice drills are due for review today.
	PracticeDue int
	// Attached names the learner's own server when one is attached; "" for none.
	Attached string
}

// LessonPage is a lesson page's model.
type LessonPage struct {
	Lesson        lessons.Lesson
	Done          bool
	Prev, Next    *lessons.Lesson
	Labs          []Lab
	Answer        string // the learner's saved drill answer, or a refused draft
	Answered      bool
	DrillError    string // why a drill answer was refused, shown beside it
	DrillMinWords int    // words an answer needs before the model answer shows
	Number        int    // position in the course
	Total         int
}

// Lab is everything needed to draw one lab's runner, on its own page or
// inline in a lesson. IDs and signal names are namespaced by slug so several
// labs can share a page.
type Lab struct {
	Info      labs.Info
	Prefix    string // DOM id prefix, e.g. "lab-streaming"
	Signals   string // JSON for data-signals: defaults of every knob
	NS        string // signal namespace holding the knob values
	GuessSig  string // signal holding the prediction
	Guess2Sig string // signal holding the second prediction (Info.Second)
	BusySig   string // true while a run streams (set by the Run button itself)
	SkipSig   string // local signal: the learner chose to run without a guess
	WidthSig  string // the output column's width in px, measured at each run
	TokenSig  string // a fresh token per run, which Stop names
	NoteSig   string // local signal holding the chosen preset's note
	RunURL    string
	StopURL   string
	Knobs     []KnobView
	Presets   []PresetView
	Runs      Runs
	Heading   int  // 1 on the lab's own page, 2 inline in a lesson
	Wide      bool // many knobs: controls span the width above the panels
	// Taught are the lessons that teach the lab, its own first; the lab's
	// own page links them.
	Taught []LessonLink
	// Fidelity says how close the engine lands to real servers, under the
	// headline stats.
	Fidelity FidelityNote
}

// KnobView is one knob with its signal path.
type KnobView struct {
	Knob   labs.Knob
	Signal string // e.g. "labStreaming.answerTokens"
	ErrID  string // id of the element that shows this knob's error
	Value  string // default as text, shown before scripts run
}

// PresetView is a preset button.
type PresetView struct {
	Name    string
	Note    string
	OnClick string // Datastar expression setting the signals
}

// Runs is the run list of one lab for one learner, newest first.
type Runs struct {
	Prefix string
	// Lab is the lab's title: it names the list, which must differ from
	// another lab's on a lesson page that embeds two.
	Lab  string
	Cols []RunCol
	// Rows are the knobs whose values differ between the listed runs,
	// then the headline stats, then the prediction.
	Rows []RunRow
	// Same lists knob settings shared by every listed run.
	Same []string
	// CompareURL is where the pick-two form goes; empty with under two runs.
	CompareURL string
	// Latest is the reflection box of the newest run.
	Latest *ReflectionForm
}

// RunCol heads one run's column.
type RunCol struct {
	Label      string // "Latest", "#2"
	When       string // "14:03:11"
	Error      string
	ID         int64  // the run's id, the value the compare form sends
	Name       string // stable name, "run #5"
	URL        string // the reopened run
	Reflection string
}

// RunRow is one line of the comparison.
type RunRow struct {
	Label string
	Cells []string
	Kind  string // "param", "stat" or "guess": styles the row
}

// ErrorPage is a 4xx or 5xx page.
type ErrorPage struct {
	Status  int
	Title   string
	Message string
}

// Guess is a learner's prediction, shown beside the stat it predicts.
type Guess struct {
	Value float64
	Unit  string
	Stat  string // key of the labs.Stat it is compared with
}

// ratio says how the measured value compares with the guess.
func (g Guess) ratio(measured float64) string {
	// A ratio has no meaning against 0, which is often the right guess (no
	// unsafe token shown): say the difference instead.
	switch {
	case g.Value == measured:
		return "exactly your guess"
	case g.Value <= 0 || measured <= 0:
		more := " more"
		if measured < g.Value {
			more = " less"
		}
		return FormatValue(math.Abs(measured-g.Value), g.Unit) + more + " than your guess"
	}
	r := measured / g.Value
	switch {
	case r >= 0.9 && r <= 1.1:
		return "within 10% of your guess"
	case r > 1:
		return FormatNumber(r) + "× your guess"
	default:
		return FormatNumber(1/r) + "× below your guess"
	}
}

// noGuess is the expression that is true while the lab asks for a
// prediction and one of its numbers is not typed. 0 is a guess.
func noGuess(l Lab) string {
	if l.Info.Prediction == "" {
		return "false"
	}
	empty := "String($" + l.GuessSig + ").trim() === ''"
	if l.Info.Second.Prediction != "" {
		empty = "(" + empty + " || String($" + l.Guess2Sig + ").trim() === '')"
	}
	return empty
}

// guessFor is the guess compared with the stat key, if any.
func guessFor(gs []Guess, key string) *Guess {
	for i := range gs {
		if gs[i].Stat == key {
			return &gs[i]
		}
	}
	return nil
}

// runLocked keeps Run disabled while a run streams, and until the learner
// has committed to a guess or chosen to skip it: predicting first is the
// point of the lab.
func runLocked(l Lab) string {
	return "$" + l.BusySig + " || (" + noGuess(l) + " && !$" + l.SkipSig + ")"
}

// ChartWidthCookie is the cookie in which runClick keeps the measured
// width of the output column, for the saved-run and comparison pages.
const ChartWidthCookie = "ll_chart_w"

// runClick measures the output column, so the server lays charts out for
// the width they will have, and keeps it in a cookie for the saved-run
// and comparison pages (ChartWidthCookie), then posts the run, keeping the busy signal
// itself for the whole request: beta.11's data-indicator stops listening
// after the first request it sees, so a second run would not show as
// running.
//
// Run is disabled while a run streams and Stop shows in its place, so
// focus moves to Stop as the run starts (one key stops it) and back to Run
// when it ends, unless the learner has moved it elsewhere meanwhile.
func runClick(l Lab) string {
	run, stop := l.Prefix+"-run", l.Prefix+"-stop"
	return "!$" + l.BusySig + " && ($" + l.WidthSig + " = (ctx.el.closest('.lab')?.querySelector('.lab-output')?.clientWidth || 0), " +
		"document.cookie = '" + ChartWidthCookie + "=' + $" + l.WidthSig + " + '; path=/; max-age=31536000; samesite=lax' + (location.protocol === 'https:' ? '; secure' : ''), $" +
		l.TokenSig + " = Date.now().toString(36) + Math.random().toString(36).slice(2, 10), $" +
		l.BusySig + " = true, " + focusLater(stop) + ", @post('" + l.RunURL +
		"', {openWhenHidden: true, retryMaxCount: 0}).finally(() => ((back) => ($" + l.BusySig + " = false, back && " + focusLater(run) + "))" +
		"([document.getElementById('" + stop + "'), document.body, null].includes(document.activeElement))))"
}

// skipClick runs without a guess: the Skip button hides itself and Run
// unlocks, so focus moves on to Run rather than falling to the page.
func skipClick(l Lab) string {
	return "$" + l.SkipSig + " = true, " + focusLater(l.Prefix+"-run")
}

// focusLater moves focus to the element with the given id once Datastar
// has applied the signal changes just made: it shows, hides and enables
// elements in its own effects, and an element still hidden or disabled
// cannot take focus. Expressions are split on semicolons, so this uses none.
func focusLater(id string) string {
	return "setTimeout(() => document.getElementById('" + id + "')?.focus())"
}
