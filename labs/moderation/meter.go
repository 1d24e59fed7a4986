package moderation

import (
	"strings"
	"time"
	"unicode"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// none marks a moment that has not happened.
const none = time.Duration(-1)

// meter records one moderated stream on the modelled timeline, every time
// relative to the moment the request was sent (see mod.Stage.RunTimed). It is the
// single source of every figure the run reports.
type meter struct {
	policy mod.Policy

	pieces    []string        // generated token texts, in order
	genAt     []time.Duration // when each token left the model
	delivered int             // tokens released to the reader (always a prefix)
	delAt     []time.Duration // when each released token was released
	visible   string

	firstToken, firstWord       time.Duration
	promptAt, caughtAt, abortAt time.Duration
	replacedAt, withheldAt, fin time.Duration
	genEnd                      time.Duration
	promptBlocked, replaced     bool
	caught                      []mod.Category
	reason                      string
	checks                      int
	checkTime                   time.Duration
	// checkStarts are when each answer check began and the token it
	// covered up to, so the first word can name the check that freed it.
	checkStarts []checkStart
	// network is what the round trips to a hosted provider add to the
	// first token (0 with the GPU next door): already in genAt.
	network time.Duration
	// thought counts a reasoning model's thinking tokens, which come
	// before the answer and are neither checked nor counted as generated.
	thought            int
	genSteps, delSteps []labs.Point
	done               bool
	truth              *analysis // set by analyse once generation ended
}

func newMeter(p mod.Policy) *meter {
	return &meter{policy: p, firstToken: none, firstWord: none, promptAt: none, caughtAt: none,
		abortAt: none, replacedAt: none, withheldAt: none, fin: none, genEnd: none,
		genSteps: []labs.Point{{X: 0, Y: 0}}, delSteps: []labs.Point{{X: 0, Y: 0}}}
}

// event records one step of the stream at time at.
func (m *meter) event(ev mod.Event, at time.Duration) {
	switch ev.Kind {
	case mod.EvPromptChecked:
		m.promptAt = at
		m.promptBlocked = ev.Result.Blocked()
		if m.promptBlocked {
			m.caught = ev.Result.Categories
		}
		m.checks++
		m.checkTime += ev.Result.Modelled
	case mod.EvGenerated:
		if m.firstToken == none {
			m.firstToken = at
		}
		m.pieces = append(m.pieces, ev.Text)
		m.genAt = append(m.genAt, at)
		m.genSteps = step(m.genSteps, at, len(m.pieces))
	case mod.EvCheckStarted:
		m.checkStarts = append(m.checkStarts, checkStart{at: at, to: ev.To})
	case mod.EvChecked:
		m.checks++
		m.checkTime += ev.Result.Modelled
	case mod.EvDelivered:
		for i := ev.From; i < ev.To; i++ {
			m.delAt = append(m.delAt, at)
		}
		m.delivered = ev.To
		m.delSteps = step(m.delSteps, at, m.delivered)
	case mod.EvCaught:
		m.caughtAt = at
		m.caught = ev.Result.Categories
	case mod.EvAborted:
		m.abortAt = at
	case mod.EvReplaced:
		m.replacedAt, m.replaced = at, true
	case mod.EvWithheld:
		m.withheldAt = at
	case mod.EvFinished:
		m.fin, m.reason = at, ev.Reason
	}
	m.visible = ev.Visible
	if m.firstWord == none && hasWord(m.visible) {
		m.firstWord = at
	}
}

// checkStart is an answer check's start on the modelled timeline and the
// end of the token range it covers.
type checkStart struct {
	at time.Duration
	to int
}

// end records the end of the run: generation over, delivery over.
func (m *meter) end(at time.Duration, c *mod.Checker) {
	m.genEnd = at
	m.done = true
	m.truth = analyse(m, c)
}

// step extends a step line to y at time x.
func step(pts []labs.Point, x time.Duration, y int) []labs.Point {
	last := pts[len(pts)-1]
	return append(pts, labs.Point{X: labs.Millis(x), Y: last.Y}, labs.Point{X: labs.Millis(x), Y: float64(y)})
}

// analysis is what the run let through, judged after the run by the same
// detectors (without latency) over everything the model generated.
type analysis struct {
	spans        []mod.Span
	leaked       int           // released tokens overlapping a finding
	unsafe       int           // generated tokens overlapping a finding, shown or not
	unsafeShown  time.Duration // first such token released, or none
	afterProblem int           // tokens generated after the first finding was complete
	lagMS        float64       // mean release lag behind generation
}

func analyse(m *meter, c *mod.Checker) *analysis {
	text := strings.Join(m.pieces, "")
	res := c.Detect(text)
	a := &analysis{spans: res.Spans, unsafeShown: none}
	off := 0
	problemEnd := -1 // token index holding the end of the first finding
	for i, p := range m.pieces {
		start, end := off, off+len(p)
		off = end
		hit := false
		for _, s := range res.Spans {
			if start < s.End && s.Start < end {
				hit = true
			}
		}
		if problemEnd < 0 && len(res.Spans) > 0 && end >= res.Spans[0].End {
			problemEnd = i
		}
		if hit {
			a.unsafe++
		}
		if hit && i < m.delivered {
			a.leaked++
			if a.unsafeShown == none || m.delAt[i] < a.unsafeShown {
				a.unsafeShown = m.delAt[i]
			}
		}
	}
	// The first finding in the text need not end first; the problem is
	// complete once the earliest-ending finding is.
	for _, s := range res.Spans {
		off := 0
		for i, p := range m.pieces {
			off += len(p)
			if off >= s.End {
				problemEnd = min(problemEnd, i)
				break
			}
		}
	}
	if problemEnd >= 0 {
		a.afterProblem = len(m.pieces) - problemEnd - 1
	}
	if m.delivered > 0 {
		var sum time.Duration
		for i := 0; i < m.delivered; i++ {
			sum += m.delAt[i] - m.genAt[i]
		}
		a.lagMS = labs.Millis(sum) / float64(m.delivered)
	}
	return a
}

// hasWord reports whether s has a letter or digit.
func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
