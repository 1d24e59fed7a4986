package views

import (
	"strconv"

	"github.com/latencylab/latencylab/labs"
)

// ReflectionForm is the one-line "What surprised you?" box of one run.
type ReflectionForm struct {
	ID     string // element id, patched whole after a save
	Action string // POST URL
	View   string // "runs" (in a run list) or "run" (a reopened run): what the answer patches
	Run    string // the run's name, "run #5"
	Value  string
	Max    int    // the character limit
	Saved  bool   // just saved: says so
	Error  string // why the last save was refused
}

// Setting is one knob of a saved run, as the learner set it.
type Setting struct {
	Label string
	Value string
}

// RunPage is one saved run reopened: its settings, prediction against
// result, and the panels the learner saw when it ended.
type RunPage struct {
	Lab      labs.Info
	LabURL   string
	Name     string // "run #3"
	When     string
	Prefix   string // DOM id prefix of its panels
	Settings []Setting
	Stats    []labs.Stat
	Guesses  []Guess // the first prediction, then the second if the lab asks for two
	Status   string
	Error    string
	Text     *labs.TextPanel
	Charts   []labs.Chart
	Tables   []labs.Table
	// NoPanels marks a run saved before panels were kept.
	NoPanels bool
	// ThinnedTo is the points per series long series were cut to when
	// saved; 0 when nothing was.
	ThinnedTo  int
	Reflection ReflectionForm
	// Others link to comparisons with the learner's other recent runs.
	Others []Link
}

// Link is a labelled URL.
type Link struct {
	Label string
	URL   string
}

// RunRef names one side of a comparison.
type RunRef struct {
	Name       string // "run #3"
	When       string
	URL        string
	Status     string
	Error      string
	Reflection string
	Text       *labs.TextPanel
	Tables     []labs.Table
	Charts     []labs.Chart // charts the other run does not have
	NoPanels   bool
}

// ComparePage draws two runs of one lab together: the charts they share
// once each with both runs' series, and their figures side by side.
type ComparePage struct {
	Lab    labs.Info
	LabURL string
	A, B   RunRef
	Rows   []CompareRow
	Same   []string // settings both runs share
	Charts []labs.Chart
}

// CompareRow is one line of the side-by-side table.
type CompareRow struct {
	Label string
	A, B  string
	Diff  string // B against A, for stats
	Kind  string // "param", "stat" or "guess"
}

func hasReflection(r Runs) bool {
	for _, c := range r.Cols {
		if c.Reflection != "" {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func int64s(n int64) string { return strconv.FormatInt(n, 10) }

// hint is the note beside the box's label: which run, and that it is optional.
func (f ReflectionForm) hint() string {
	if f.Run == "" {
		return "(optional, one line)"
	}
	return "(" + f.Run + ", optional, one line)"
}
