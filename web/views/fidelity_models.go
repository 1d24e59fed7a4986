package views

import "strings"

// Fidelity is the reference-table page: every published figure beside the
// engine's figure for the same deployment and workload.
type Fidelity struct {
	// Ready is false while the table is still being computed at start-up.
	Ready bool
	// Error is a failure to compute the table, in words for the page.
	Error   string
	About   string
	Notes   []string
	Figures int // figures in the table
	HeldOut int // of which held out
	Sources []FidelitySource
	// Publishers is how many independent publishers the sources come from.
	Publishers int
	// HeldOutMedian, FittedMedian and AllMedian are percentages, formatted.
	HeldOutMedian, FittedMedian, AllMedian string
	// Worst and WorstFitted are the held-out and the fitted figure
	// furthest off, in words; "" for a set with no figures.
	Worst, WorstFitted string
	ByKind             []FidelityKind
	Rows               []FidelityRow
}

// FidelitySource is one published result set.
type FidelitySource struct {
	Title, Publisher, URL string
	HeldOut               bool
	Figures               int
}

// FidelityKind is the median error over one kind of figure.
type FidelityKind struct {
	Label   string // "time to first token"
	Median  string // "2.8%"
	Figures int
}

// fidelityColumns are the "Every figure" table's headings, and whether
// each holds numbers (right-aligned).
var fidelityColumns = []struct {
	Name string
	Num  bool
}{{"Run", false}, {"Workload", false}, {"Figure", false}, {"Measured", true}, {"Modelled", true}, {"Error", true}, {"Set", false}}

// FidelityRow is one figure of the table, formatted.
type FidelityRow struct {
	Run, URL, Source string
	Deployment       string // "llama-3.1-8b · h100-sxm · BF16 · TP 1"
	Engine           string // server version and benchmark settings
	Workload         string
	Metric           string
	Measured         string
	Modelled         string
	Error            string // signed, "+3.6%"
	Off              bool   // off by more than the page's highlight threshold
	HeldOut          bool
	// Span is how many figures the run has on its first row (the run's
	// cells span them all) and 0 on the rows after.
	Span int
}

// FidelityNote is the line under a lab's headline stats that says how close
// the engine's figures land to real servers, and links to the table.
type FidelityNote struct {
	// Within lists "N% on <kind>" phrases; empty while the table is still
	// being computed.
	Within []string
	URL    string
}

// Sentence is the note's text before its link. It speaks of the bundled
// engine, so it stays true beside a run the learner sent to a real server.
func (n FidelityNote) Sentence() string {
	w := n.Within
	switch len(w) {
	case 0:
		return "On the bundled engine, this lab's figures are modelled, not measured on a GPU."
	case 1:
		return "On the bundled engine, this lab's figures are modelled. On published vLLM benchmarks this engine is typically within " + w[0] + "."
	}
	return "On the bundled engine, this lab's figures are modelled. On published vLLM benchmarks this engine is typically within " +
		strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1] + "."
}
