package streaming

import (
	"strings"
	"time"
	"unicode"

	"github.com/latencylab/latencylab/labs"
)

// meter records what the learner would see, timed on the modelled GPU's
// clock relative to the request's arrival (so a busy host cannot bend it).
// It is the single source of every figure the run reports.
type meter struct {
	streaming bool

	tokens   int             // tokens received so far
	thought  int             // of them, a reasoning model's thinking (on a server)
	received strings.Builder // every token's text, as received
	visible  string          // what the learner can see
	words    int             // words in visible
	firstTok time.Duration   // first token received; valid when tokens > 0
	// firstAnswer is the first answer token, after any thinking; valid
	// when tokens > thought.
	firstAnswer time.Duration
	// thoughtFirst is how many thinking tokens came before firstAnswer.
	thoughtFirst int
	firstWord    time.Duration // first word visible; valid when words > 0
	complete     time.Duration // final event received; valid when done
	done         bool

	// steps is the visible word count over time, as a step line:
	// (t, before) then (t, after) at every change.
	steps []point
}

// point is a sample of the visible word count.
type point struct {
	at    time.Duration
	words int
}

func newMeter(streaming bool) *meter {
	return &meter{streaming: streaming, steps: []point{{0, 0}}}
}

// token records one token received at time at with its text; a thinking
// token (see labs.AnswerText) counts as written but has no text.
func (m *meter) token(at time.Duration, piece string, thinking bool) {
	if m.tokens == 0 {
		m.firstTok = at
	}
	if thinking {
		m.thought++
	} else if m.tokens == m.thought {
		m.firstAnswer, m.thoughtFirst = at, m.thought
	}
	m.tokens++
	m.received.WriteString(piece)
	if m.streaming {
		m.show(at, m.received.String())
	}
}

// finish records the final event; a blocking handler now sends the whole
// answer at once.
func (m *meter) finish(at time.Duration) {
	m.complete, m.done = at, true
	if !m.streaming {
		m.show(at, m.received.String())
	}
}

// show makes text visible at time at.
func (m *meter) show(at time.Duration, text string) {
	m.visible = text
	w := countWords(text)
	if w == m.words {
		return
	}
	if m.words == 0 {
		m.firstWord = at
	}
	m.steps = append(m.steps, point{at, m.words}, point{at, w})
	m.words = w
}

// countWords counts whitespace-separated words, the unit of reading speed.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		sp := unicode.IsSpace(r)
		if !sp && !in {
			n++
		}
		in = !sp
	}
	return n
}

// tpotMS is the mean time per output token after the first, as vLLM
// defines it: (complete − first token) / (tokens − 1), in milliseconds.
func (m *meter) tpotMS() float64 {
	if m.tokens < 2 {
		return 0
	}
	return labs.Millis(m.complete-m.firstTok) / float64(m.tokens-1)
}
