package moderation

import (
	"slices"
	"time"
)

// Category names what a detector found. PII categories start with "pii.",
// policy categories with "policy.".
type Category string

// Categories the detectors report.
const (
	PIIEmail        Category = "pii.email"
	PIIPhone        Category = "pii.phone"
	PIICard         Category = "pii.card"
	PIIIBAN         Category = "pii.iban"
	PolicyFraud     Category = "policy.fraud"
	PolicyCredTheft Category = "policy.credential-theft"
	PolicyAbuse     Category = "policy.abuse"
	Injection       Category = "injection"
)

// Span is one finding: the byte range [Start, End) of the checked text,
// what it is and which detector found it.
type Span struct {
	Start, End int
	Category   Category
	Detector   string // "regex", "luhn", "mod97", "rules", "bayes"
}

// Verdict is a check's decision.
type Verdict string

// Verdicts.
const (
	Allow Verdict = "allow" // nothing found
	Block Verdict = "block" // something found; the text must not be shown
)

// Result is the outcome of one check.
type Result struct {
	Verdict    Verdict
	Categories []Category // distinct, sorted
	Spans      []Span     // sorted by Start
	// Took is the detectors' own time, measured on the checker's clock.
	Took time.Duration
	// Waited is the simulated service latency the check waited on top.
	Waited time.Duration
	// Modelled is the check's time on the modelled timeline: the service
	// latency the checker is configured with. Took and Waited are what
	// the host's clock saw, and a busy host stretches them; this does not.
	Modelled time.Duration
	// Chars is the length of the checked text in bytes.
	Chars int
}

// Blocked reports whether the checked text must not be shown.
func (r Result) Blocked() bool { return r.Verdict == Block }

// result builds a Result from spans.
func result(text string, spans []Span) Result {
	r := Result{Verdict: Allow, Chars: len(text)}
	if len(spans) == 0 {
		return r
	}
	slices.SortFunc(spans, func(a, b Span) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	r.Verdict, r.Spans = Block, spans
	for _, s := range spans {
		if !slices.Contains(r.Categories, s.Category) {
			r.Categories = append(r.Categories, s.Category)
		}
	}
	slices.Sort(r.Categories)
	return r
}
