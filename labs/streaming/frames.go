package streaming

import (
	"fmt"
	"strconv"
	"time"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// Stat keys; first_word_ms is what the prediction is compared with.
const (
	statFirstWord = "first_word_ms"
	statTTFT      = "ttft_ms"
	statTPOT      = "tpot_ms"
	statTotal     = "total_ms"
	statTokens    = "tokens"
	statTokPerS   = "tokens_per_s"
	statReading   = "reading_ms"
)

// Chart and mark names.
const (
	chartID       = "words-over-time"
	seriesWords   = "words visible"
	seriesReading = "reading speed"
	markSent      = "request sent"
	markFirstWord = "first word"
	markComplete  = "complete"
)

// view turns a meter into frames. Its fixed parts come from the request
// the lab built (lengths, the axis estimate), never from results.
type view struct {
	s           settings
	answerWords int     // words in the composed answer: the Y axis end
	xmax        float64 // ms; grows only when a run outlasts it
	// sharing and notes are set when the answer is complete: who else
	// the GPU served, and the sentences (busy host, shared GPU) the final
	// status carries.
	sharing live.Sharing
	notes   []string
	// steps is the roofline of the request's own steps, the start of the
	// formulas behind its first token and time per output token.
	steps   labs.Steps
	stepsOK bool
	// network is what the round trips to a hosted provider add to the
	// first token (0 with the GPU next door).
	network time.Duration
	// server names the server that timed the run (labs.AnswerText.Server),
	// known from its first token; "" on the bundled engine.
	server string
}

// frame is the state of every panel at time now (since the request was sent).
func (v *view) frame(m *meter, now time.Duration) labs.Frame {
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(now), 1.25)
	return labs.Frame{
		Final: m.done,
		// A run whose every token was thinking worked but gave the
		// reader nothing: a warning, not a success.
		Missed: m.done && m.words == 0 && m.thought > 0,
		Status: v.status(m, now),
		Stats:  v.stats(m),
		Text:   v.text(m),
		Charts: []labs.Chart{v.chart(m, now)},
	}
}

func (v *view) status(m *meter, now time.Duration) string {
	switch {
	case m.done && v.s.streaming && m.words == 0:
		return labs.JoinNotes(fmt.Sprintf("Complete: %s tokens in %s.", labs.Thousands(m.tokens), labs.FormatMS(labs.Millis(m.complete))), v.notes...)
	case m.done && v.s.streaming:
		return labs.JoinNotes(fmt.Sprintf("Complete: %s tokens in %s. The first word appeared after %s.",
			labs.Thousands(m.tokens), labs.FormatMS(labs.Millis(m.complete)), labs.FormatMS(labs.Millis(m.firstWord))), v.notes...)
	case m.done:
		return labs.JoinNotes(fmt.Sprintf("Complete: %s tokens in %s. Nothing was shown until the whole answer was ready.",
			labs.Thousands(m.tokens), labs.FormatMS(labs.Millis(m.complete))), v.notes...)
	case m.tokens == 0 && now > 0:
		return fmt.Sprintf("Waiting for the first token (%s so far) while the GPU reads the %s-token prompt.",
			labs.FormatMS(labs.Millis(now)), labs.Thousands(v.s.promptTokens))
	case m.tokens == 0:
		return fmt.Sprintf("Request sent; waiting for the first token while the GPU reads the %s-token prompt.",
			labs.Thousands(v.s.promptTokens))
	case v.s.streaming:
		return fmt.Sprintf("Generating: %s of %s tokens.", labs.Thousands(m.tokens), labs.Thousands(v.s.answerTokens))
	}
	return fmt.Sprintf("Generating: %s of %s tokens, held back until the answer is complete.", labs.Thousands(m.tokens), labs.Thousands(v.s.answerTokens))
}

// stats lists the figures measured so far; the final frame has them all.
func (v *view) stats(m *meter) []labs.Stat {
	var out []labs.Stat
	add := func(key, label string, val float64, unit, note string) {
		out = append(out, labs.Stat{Key: key, Label: label, Value: val, Unit: unit, Note: note})
	}
	if m.words > 0 {
		add(statFirstWord, "Time to first word", labs.Millis(m.firstWord), "ms", "what the reader waits for")
	}
	if m.tokens > 0 {
		ttft := labs.Millis(m.firstTok)
		add(statTTFT, "Time to first token", ttft, "ms", v.ttftNote(m))
		switch {
		case v.server != "":
			out[len(out)-1].Why = labs.MeasuredTTFT(v.server, ttft, labs.Millis(v.network), m.thought > 0 && m.firstAnswer != m.firstTok).Text(ttft)
		case v.stepsOK:
			out[len(out)-1].Why = v.steps.TTFT(ttft, labs.Millis(v.network), v.sharing).Text(ttft)
		}
	}
	if m.done {
		tpot := m.tpotMS()
		add(statTPOT, "Time per output token", tpot, "ms", "(complete − first token) ÷ (tokens − 1)")
		switch {
		case v.server != "":
			out[len(out)-1].Why = labs.MeasuredTPOT(v.server, labs.Millis(m.firstTok), labs.Millis(m.complete), m.tokens).Text(tpot)
		case v.stepsOK:
			out[len(out)-1].Why = v.steps.TPOT(tpot, v.capMS(), v.sharing).Text(tpot)
		}
		add(statTotal, "Total time", labs.Millis(m.complete), "ms", "request sent to answer complete")
	}
	add(statTokens, "Tokens", float64(m.tokens), "tokens", "received by the handler")
	if m.done {
		rate := 0.0
		if tpot := m.tpotMS(); tpot > 0 {
			rate = 1000 / tpot
		}
		add(statTokPerS, "Generation speed", rate, "tok/s", "after the first token")
		if m.words > 0 { // no answer word came (every token was thinking): nothing to read
			add(statReading, "Reading time", readingMS(m.words, v.s.readingSpeed), "ms",
				fmt.Sprintf("%s words at %s words/s", labs.Thousands(m.words), strconv.FormatFloat(v.s.readingSpeed, 'f', -1, 64)))
		}
		labs.Explain(out, v.why(m))
	}
	return out
}

// ttftNote says what the time to first token counts: on a server, that
// it was measured there and, for a reasoning model, that the token was
// thinking.
func (v *view) ttftNote(m *meter) string {
	what := "first token"
	if m.thought > 0 && (m.tokens == m.thought || m.firstAnswer != m.firstTok) {
		what = "first token (thinking)"
	}
	switch {
	case v.server != "" && v.network > 0:
		return fmt.Sprintf("%s, measured on that server, plus %s of modelled network", what, labs.FormatMS(labs.Millis(v.network)))
	case v.server != "":
		return what + ", measured on that server"
	case v.network > 0:
		return fmt.Sprintf("%s back from the provider: the GPU's time plus %s of network", what, labs.FormatMS(labs.Millis(v.network)))
	}
	return what + ", on the GPU's clock"
}

// capMS is the speed cap as milliseconds per token; 0 with no cap.
func (v *view) capMS() float64 {
	if v.s.speedCap <= 0 {
		return 0
	}
	return 1000 / float64(v.s.speedCap)
}

func (v *view) text(m *meter) *labs.TextPanel {
	marks := []labs.Mark{{Label: markSent, At: 0}}
	if m.words > 0 {
		marks = append(marks, labs.Mark{Label: markFirstWord, At: labs.Millis(m.firstWord)})
	}
	if m.done {
		marks = append(marks, labs.Mark{Label: markComplete, At: labs.Millis(m.complete)})
	}
	return &labs.TextPanel{Title: "What the reader sees", Note: labs.ComposedNote(v.server), Body: m.visible, Marks: marks}
}

// chart draws visible words over time against the reading-speed line.
func (v *view) chart(m *meter, now time.Duration) labs.Chart {
	words := m.wordSteps(now)
	c := labs.Chart{
		ID: chartID, Title: "Words the reader can see", Kind: labs.ChartLine,
		XLabel: "Time since the request was sent", XUnit: "ms",
		YLabel: "Words", YUnit: "words",
		XMax: v.xmax, YMax: float64(v.answerWords),
		Series: []labs.Series{{Name: seriesWords, Points: words}},
	}
	if m.words > 0 {
		c.Series = append(c.Series, readingLine(m.firstWord, v.answerWords, v.s.readingSpeed, v.xmax))
		c.Marks = append(c.Marks, labs.Mark{Label: markFirstWord, At: labs.Millis(m.firstWord)})
	}
	if m.done {
		c.Marks = append(c.Marks, labs.Mark{Label: markComplete, At: labs.Millis(m.complete)})
	}
	return c
}

// wordSteps is the visible word count as a step line up to now (or to
// the end of the answer once it is complete).
func (m *meter) wordSteps(now time.Duration) []labs.Point {
	end := now
	if m.done {
		end = m.complete
	}
	words := make([]labs.Point, 0, len(m.steps)+1)
	for _, p := range m.steps {
		words = append(words, labs.Point{X: labs.Millis(p.at), Y: float64(p.words)})
	}
	if last := m.steps[len(m.steps)-1]; end > last.at {
		words = append(words, labs.Point{X: labs.Millis(end), Y: float64(last.words)})
	}
	return words
}

// readingLine is a reader starting at the first word at speed words per
// second, stopped at the end of the answer or of the axis.
func readingLine(firstWord time.Duration, words int, speed, xmax float64) labs.Series {
	t0 := labs.Millis(firstWord)
	t1 := min(xmax, t0+readingMS(words, speed))
	return labs.Series{Name: seriesReading, Dashed: true, Points: []labs.Point{{X: t0, Y: 0}, {X: t1, Y: (t1 - t0) / 1000 * speed}}}
}

// readingMS is how long reading words takes at speed words per second.
func readingMS(words int, speed float64) float64 {
	if speed <= 0 {
		return 0
	}
	return float64(words) / speed * 1000
}
