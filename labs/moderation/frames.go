package moderation

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// Stat keys; leaked_tokens is what the prediction is compared with.
const (
	statFirstWord    = "first_word_ms"
	statLeaked       = "leaked_tokens"
	statAfterProblem = "tokens_after_problem"
	statLag          = "delivery_lag_ms"
	statTotal        = "total_ms"
	statChecks       = "checks"
	statModeration   = "moderation_ms"
	statGenerated    = "tokens_generated"
)

// Chart, series and mark names.
const (
	chartFronts     = "fronts"
	seriesGenerated = "tokens generated"
	seriesDelivered = "tokens delivered"
	markFirstWord   = "first word"
	markUnsafeShown = "unsafe text shown"
	markCaught      = "caught"
	markReplaced    = "replaced"
	markWithheld    = "withheld"
	markAborted     = "aborted"
	markPromptBlock = "prompt blocked"
)

// view turns a meter into frames for a single-policy run.
type view struct {
	s      settings
	answer int     // tokens in the composed answer: the Y axis end
	xmax   float64 // ms; grows only when a run outlasts it
	// notes end the final status: a busy host, a shared GPU.
	notes []string
}

func (v *view) frame(m *meter, now time.Duration) labs.Frame {
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(now), 1.25)
	f := labs.Frame{
		Final:  m.done,
		Status: labs.JoinNotes(v.status(m, now), v.notes...),
		Stats:  stats(m),
		Text:   text(m),
		Charts: []labs.Chart{v.chart(m, now)},
	}
	if m.done {
		f.Tables = []labs.Table{replay(m)}
	}
	return f
}

func (v *view) status(m *meter, now time.Duration) string {
	switch {
	case m.done && m.promptBlocked:
		return fmt.Sprintf("Refused before generation: the prompt check found %s in %s. No tokens were generated.",
			cats(m.caught), labs.FormatMS(labs.Millis(m.promptAt)))
	case m.done && m.reason == mod.FinishContentFilter:
		return fmt.Sprintf("Blocked (finish reason content_filter): %s caught at %s; %s had reached the reader.",
			cats(m.caught), labs.FormatMS(labs.Millis(m.caughtAt)), labs.Count(m.truth.leaked, "unsafe token"))
	case m.done:
		return fmt.Sprintf("Complete: %s delivered in %s after %s; nothing was blocked.",
			labs.Count(m.delivered, "token"), labs.FormatMS(labs.Millis(m.fin)), labs.Count(m.checks, "check"))
	case len(m.pieces) == 0:
		return fmt.Sprintf("Waiting for the first token (%s so far).", labs.FormatMS(labs.Millis(now)))
	}
	return fmt.Sprintf("Generated %s of %s tokens; %s delivered to the reader.", labs.Thousands(len(m.pieces)), labs.Thousands(v.answer), labs.Thousands(m.delivered))
}

// stats lists the figures measured so far; the final frame has them all.
func stats(m *meter) []labs.Stat {
	var out []labs.Stat
	add := func(key, label string, val float64, unit, note string) {
		out = append(out, labs.Stat{Key: key, Label: label, Value: val, Unit: unit, Note: note})
	}
	if m.firstWord != none {
		add(statFirstWord, "Time to first word", labs.Millis(m.firstWord), "ms", "request sent to the first word on screen (the fallback counts)")
	}
	if m.done {
		add(statLeaked, "Unsafe tokens shown", float64(m.truth.leaked), "tokens", "delivered tokens inside personal data or off-policy text")
		add(statAfterProblem, "Tokens after the problem", float64(m.truth.afterProblem), "tokens", "generated after the first unsafe item was complete")
		add(statLag, "Delivery lag", m.truth.lagMS, "ms", "mean time a delivered token waited behind generation")
		add(statTotal, "Total time", labs.Millis(m.fin), "ms", "request sent to the end of delivery")
		add(statGenerated, "Tokens generated", float64(len(m.pieces)), "tokens", generatedNote(m.thought))
	}
	add(statChecks, "Checks", float64(m.checks), "", "moderation calls, the prompt check included")
	add(statModeration, "Time in moderation", labs.Millis(m.checkTime), "ms", "each check's modelled service time, summed over checks")
	if m.done {
		labs.Explain(out, why(m))
	}
	return out
}

// text is what the reader sees, with the moments that matter.
func text(m *meter) *labs.TextPanel {
	p := &labs.TextPanel{Title: "What the user saw", Body: m.visible, Marks: []labs.Mark{}}
	add := func(label string, at time.Duration) {
		if at != none {
			p.Marks = append(p.Marks, labs.Mark{Label: label, At: labs.Millis(at)})
		}
	}
	add(markFirstWord, m.firstWord)
	if m.truth != nil {
		add(markUnsafeShown, m.truth.unsafeShown)
	}
	if m.promptBlocked {
		add(markPromptBlock, m.promptAt)
	}
	add(markCaught, m.caughtAt)
	add(markAborted, m.abortAt)
	add(markReplaced, m.replacedAt)
	add(markWithheld, m.withheldAt)
	slices.SortStableFunc(p.Marks, func(a, b labs.Mark) int { return int(math.Ceil(a.At - b.At)) })
	return p
}

// chart draws the generation front against the delivery front.
func (v *view) chart(m *meter, now time.Duration) labs.Chart {
	c := labs.Chart{
		ID: chartFronts, Title: "Generated vs delivered", Kind: labs.ChartLine,
		XLabel: "Time since the request was sent", XUnit: "ms", YLabel: "Tokens", YUnit: "tokens",
		XMax: v.xmax, YMax: float64(max(v.answer, 1)),
		Series: []labs.Series{
			{Name: seriesGenerated, Points: extend(m.genSteps, now, m.done, m.genEnd)},
			{Name: seriesDelivered, Points: extend(m.delSteps, now, m.done, m.genEnd)},
		},
	}
	for _, mk := range text(m).Marks {
		if mk.Label != markWithheld {
			c.Marks = append(c.Marks, mk)
		}
	}
	return c
}

// extend carries a step line on to the current time.
func extend(pts []labs.Point, now time.Duration, done bool, end time.Duration) []labs.Point {
	t := now
	if done {
		t = end
	}
	out := slices.Clone(pts)
	if last := out[len(out)-1]; labs.Millis(t) > last.X {
		out = append(out, labs.Point{X: labs.Millis(t), Y: last.Y})
	}
	return out
}

// replay is the run told as the reader lived it.
func replay(m *meter) labs.Table {
	type row struct {
		at   time.Duration
		what string
		seen string
	}
	var rows []row
	add := func(at time.Duration, what, seen string) {
		if at != none {
			rows = append(rows, row{at, what, seen})
		}
	}
	add(0, "request sent", "")
	if m.promptAt != none {
		verdict := "passed"
		if m.promptBlocked {
			verdict = "refused"
		}
		add(m.promptAt, "prompt check "+verdict, "")
	}
	add(m.firstToken, "first token generated", "")
	add(m.firstWord, markFirstWord, snippet(m.firstWordText()))
	if m.truth != nil && m.truth.unsafeShown != none {
		add(m.truth.unsafeShown, markUnsafeShown, labs.Count(m.truth.leaked, "unsafe token")+" reached the screen")
	}
	if !m.promptBlocked {
		add(m.caughtAt, markCaught+": "+cats(m.caught), "")
	}
	add(m.abortAt, "generation cancelled", "")
	if m.promptBlocked {
		add(m.replacedAt, "refusal shown instead of an answer", snippet(m.visible))
	} else {
		add(m.replacedAt, "message replaced by the fallback", snippet(mod.DefaultFallback))
	}
	add(m.withheldAt, "rest of the answer withheld", "")
	add(m.fin, "delivery finished ("+m.reason+")", labs.Count(m.delivered, "token")+" shown")
	add(m.genEnd, "generation ended", labs.Count(len(m.pieces), "token")+" generated")
	slices.SortStableFunc(rows, func(a, b row) int { return int(a.at - b.at) })
	t := labs.Table{Title: "What the user saw, step by step", Columns: []string{"Time", "Event", "On screen"}}
	var times []float64
	for _, r := range rows {
		times = append(times, labs.Millis(r.at))
	}
	unit := labs.TimeFormatFor(times...) // one unit for the whole column
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{unit.Format(labs.Millis(r.at)), r.what, r.seen})
	}
	return t
}

// firstWordText is the text on screen when the first word appeared: the
// first delivery, or the fallback when nothing was delivered.
func (m *meter) firstWordText() string {
	if m.delivered > 0 {
		return m.pieces[0] + pieceAt(m.pieces, 1) + pieceAt(m.pieces, 2)
	}
	return m.visible
}

func pieceAt(p []string, i int) string {
	if i < len(p) {
		return p[i]
	}
	return ""
}

func snippet(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// cats lists categories for a status line.
func cats(cs []mod.Category) string {
	if len(cs) == 0 {
		return "a problem"
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return strings.Join(out, ", ")
}

// generatedNote says what the tokens generated count: all the model wrote,
// or, after a reasoning model's thinking, the answer's alone.
func generatedNote(thought int) string {
	if thought == 0 {
		return "what the model wrote (and was paid for)"
	}
	return fmt.Sprintf("the answer's; the %s of thinking before it were written and paid for too", labs.Count(thought, "token"))
}
