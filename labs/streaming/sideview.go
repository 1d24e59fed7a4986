package streaming

import (
	"fmt"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// Side-by-side stat keys and series names; the streamed answer's first
// word keeps statFirstWord, so the learner's guess is compared with it.
const (
	statBlockedFirstWord = "blocked_first_word_ms"
	statStreamedComplete = "streamed_complete_ms"
	statBlockedComplete  = "blocked_complete_ms"
	statHeadStart        = "head_start_ms"

	seriesStreamed = "streamed answer"
	seriesBlocked  = "blocked answer"
	markBlocked    = "blocked shown"
)

// sideView turns the two players of a side-by-side run into frames.
type sideView struct {
	s           settings
	answerWords int     // words in the streamed answer: the Y axis end
	xmax        float64 // ms; grows only when a run outlasts it
	notes       []string
	// server names the server that timed the run; "" on the bundled engine.
	server string
}

func (v *sideView) frame(ps [2]*player, now time.Duration) labs.Frame {
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(now), 1.25)
	st, bl := ps[0].m, ps[1].m
	v.server = ps[0].server()
	return labs.Frame{
		Final:  st.done && bl.done,
		Status: v.status(st, bl),
		Stats:  v.stats(st, bl),
		Text:   &labs.TextPanel{Title: "What the streamed answer's reader sees", Note: labs.ComposedNote(ps[0].server()), Body: st.visible},
		Charts: []labs.Chart{v.chart(st, bl, now)},
	}
}

func (v *sideView) status(st, bl *meter) string {
	ms := func(d time.Duration) string { return labs.FormatMS(labs.Millis(d)) }
	switch {
	case st.done && bl.done && st.words == 0:
		return labs.JoinNotes(fmt.Sprintf("Both answers complete: the streamed one wrote %s tokens by %s, the blocked one %s by %s.",
			labs.Thousands(st.tokens), ms(st.complete), labs.Thousands(bl.tokens), ms(bl.complete)), v.notes...)
	case st.done && bl.done:
		return labs.JoinNotes(fmt.Sprintf("Both answers complete. The streamed one (%s tokens) showed its first word at %s and finished at %s; "+
			"the blocked one (%s tokens) finished at %s and only then showed anything. Both shared the GPU's batch.",
			labs.Thousands(st.tokens), ms(st.firstWord), ms(st.complete), labs.Thousands(bl.tokens), ms(bl.complete)), v.notes...)
	case st.tokens == 0:
		return fmt.Sprintf("Both requests sent; the GPU reads their %s-token prompts together.", labs.Thousands(v.s.promptTokens))
	case bl.done:
		return fmt.Sprintf("The blocked answer is on screen, whole; the streamed one is still writing (%s of %s tokens).",
			labs.Thousands(st.tokens), labs.Thousands(v.s.answerTokens))
	}
	return fmt.Sprintf("The streamed answer is on screen and growing (%s of %s tokens); the blocked one is held back (%s of %s tokens written).",
		labs.Thousands(st.tokens), labs.Thousands(v.s.answerTokens), labs.Thousands(bl.tokens), labs.Thousands(blockedTokens(v.s.answerTokens)))
}

func (v *sideView) stats(st, bl *meter) []labs.Stat {
	var out []labs.Stat
	add := func(key, label string, d time.Duration, note string) {
		out = append(out, labs.Stat{Key: key, Label: label, Value: labs.Millis(d), Unit: "ms", Note: note})
	}
	if st.words > 0 {
		note := "on the GPU's clock"
		if v.server != "" {
			note = "measured on that server"
		}
		add(statFirstWord, "First word, streamed answer", st.firstWord, note)
	}
	if bl.done {
		add(statBlockedFirstWord, "First word, blocked answer", bl.firstWord, "shown only once complete")
	}
	if st.done {
		add(statStreamedComplete, "Streamed answer complete", st.complete, fmt.Sprintf("%s tokens", labs.Thousands(st.tokens)))
	}
	if bl.done {
		add(statBlockedComplete, "Blocked answer complete", bl.complete, fmt.Sprintf("%s tokens", labs.Thousands(bl.tokens)))
	}
	if st.words > 0 && bl.done {
		add(statHeadStart, "Streamed reader's head start", bl.firstWord-st.firstWord, "blocked first word − streamed first word")
	}
	labs.Explain(out, v.sideWhy(st, bl))
	return out
}

// chart draws both answers' visible words over time on one axis, with a
// reader of the streamed answer.
func (v *sideView) chart(st, bl *meter, now time.Duration) labs.Chart {
	c := labs.Chart{
		ID: chartID, Title: "Words on screen, both answers", Kind: labs.ChartLine,
		XLabel: "Time since the requests were sent", XUnit: "ms", YLabel: "Words", YUnit: "words",
		XMax: v.xmax, YMax: float64(v.answerWords),
		Series: []labs.Series{{Name: seriesStreamed, Points: st.wordSteps(now)}, {Name: seriesBlocked, Points: bl.wordSteps(now)}},
	}
	if st.words > 0 {
		c.Series = append(c.Series, readingLine(st.firstWord, v.answerWords, v.s.readingSpeed, v.xmax))
		c.Marks = append(c.Marks, labs.Mark{Label: markFirstWord, At: labs.Millis(st.firstWord)})
	}
	if bl.done {
		c.Marks = append(c.Marks, labs.Mark{Label: markBlocked, At: labs.Millis(bl.complete)})
	}
	return c
}

// sideBySidePreset sends a 300-token streamed answer and a 150-token
// blocked one together, both held to a hosted API's 80 tokens a second.
// Its note's figures are held by TestSideBySidePreset.
func sideBySidePreset() labs.Example[params] {
	p := defaults
	p.sideBySide, p.speedCap, p.promptTokens = true, 80, 4000
	return labs.Example[params]{Name: "Streamed 4 s vs blocked 2 s, side by side", Params: p,
		Note: "Two requests sent together to one GPU, each written at 80 tokens a second: a 300-token answer that streams and a 150-token one shown only when complete. The streamed reader has words after about a quarter of a second and the whole answer at about 4 s; the blocked reader sees nothing until about 2.1 s, although that answer is done almost 2 s sooner."}
}
