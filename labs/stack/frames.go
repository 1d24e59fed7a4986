package stack

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// Chart id, series and mark names.
const (
	chartWords    = "words-over-time"
	seriesThrough = "through the proxy"
	seriesDirect  = "without the proxy"
	seriesBrowser = "at the browser"
	markFirstTok  = "GPU's first token"
	markLastTok   = "GPU's last token"
	markFirstWord = "first word"
	markLastWord  = "last word"
)

// view turns an answer so far into frames. Its fixed parts come from the
// request (the answer's words, the axis estimate), never from results.
type view struct {
	s     settings
	wire  *wire
	words int     // words in the whole answer: the Y axis end
	xmax  float64 // ms; grows only when a run outlasts it
}

// newView sizes the chart from the answer's text and the request's time
// alone on the GPU (labs.Alone), with some headroom.
func newView(s settings, text string, aloneE2E time.Duration, ok bool) *view {
	xmax := 1000.0
	if ok {
		xmax = labs.NiceCeil(labs.Millis(aloneE2E) * 1.15)
	}
	return &view{s: s, wire: newWire(s.format), words: len(strings.Fields(text)), xmax: xmax}
}

// live is the reader's page at time now, with the answer as far as the GPU
// has got.
func (v *view) live(a answer, now time.Duration) labs.Frame {
	h, err := through(v.s, v.wire, a, now)
	if err != nil {
		return labs.Frame{Status: "The stream could not be read: " + err.Error()}
	}
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(now), 1.25)
	seen := watch(h.browser, now, a.firstToken())
	f := labs.Frame{Status: v.liveStatus(a, h, seen), Text: v.text(seen, false),
		Charts: []labs.Chart{v.chart(a, h, now, false)}}
	if seen.words > 0 {
		f.Stats = []labs.Stat{{Key: statFirstWord, Label: "First word at the browser", Value: labs.Millis(seen.firstWord), Unit: "ms"}}
	}
	return f
}

func (v *view) liveStatus(a answer, h hops, seen screen) string {
	n := len(a.tokens)
	switch {
	case n == 0:
		return "Request sent; the GPU is reading the prompt."
	case seen.words == 0 && v.s.proxy.buffers():
		return fmt.Sprintf("The GPU has written %s; the proxy is holding %s and the reader sees nothing yet.",
			labs.Count(n, "token"), labs.Count(held(h), "byte"))
	}
	return fmt.Sprintf("The GPU has written %s; the reader's page shows %s.", labs.Count(n, "token"), labs.Count(seen.words, "word"))
}

// held is how many bytes the proxy has taken in and not passed on.
func held(h hops) int {
	return bytesOf(h.gateway) - bytesOf(h.proxied)
}

func bytesOf(cs []chunk) int {
	n := 0
	for _, c := range cs {
		n += len(c.data)
	}
	return n
}

// text is the reader's page, with when the first and last words came.
func (v *view) text(seen screen, final bool) *labs.TextPanel {
	t := &labs.TextPanel{Title: "What the reader's page shows", Body: seen.text}
	if seen.words > 0 {
		t.Marks = append(t.Marks, labs.Mark{Label: markFirstWord, At: labs.Millis(seen.firstWord)})
	}
	if final && seen.words > 0 {
		t.Marks = append(t.Marks, labs.Mark{Label: markLastWord, At: labs.Millis(seen.lastWord)})
	}
	return t
}

// chart draws the words on the reader's screen over time, through the
// proxy and without it (one line when the proxy passes the stream
// through, since the two are then the same).
func (v *view) chart(a answer, h hops, now time.Duration, final bool) labs.Chart {
	upTo := now
	if final {
		upTo = -1
	}
	end := labs.Millis(now)
	if final {
		end = labs.Millis(a.end)
	}
	line := func(name string, arr []arrival) labs.Series {
		pts := watch(arr, upTo, a.firstToken()).points
		if last := pts[len(pts)-1]; end > last.X {
			pts = append(pts, labs.Point{X: end, Y: last.Y})
		}
		return labs.Series{Name: name, Points: pts}
	}
	ch := labs.Chart{ID: chartWords, Title: "Words on the reader's screen", Kind: labs.ChartLine,
		XLabel: "Time since the request was sent", XUnit: "ms", YLabel: "Words", YUnit: "words",
		XMax: v.xmax, YMax: float64(v.words)}
	if v.s.proxy.buffers() {
		ch.Series = []labs.Series{line(seriesDirect, h.direct), line(seriesThrough, h.browser)}
	} else {
		ch.Series = []labs.Series{line(seriesBrowser, h.browser)}
	}
	if len(a.tokens) > 0 {
		ch.Marks = append(ch.Marks, labs.Mark{Label: markFirstTok, At: labs.Millis(a.firstToken())})
	}
	if final {
		ch.Marks = append(ch.Marks, labs.Mark{Label: markLastTok, At: labs.Millis(a.end)})
	}
	return ch
}

// final is the whole run: the stats with the arithmetic behind the first
// word, the reader's page, the chart and every hop's raw events.
func (v *view) final(a answer, notes []string) (labs.Frame, error) {
	h, err := through(v.s, v.wire, a, -1)
	if err != nil {
		return labs.Frame{}, fmt.Errorf("stack: %w", err)
	}
	seen := watch(h.browser, -1, a.firstToken())
	direct := watch(h.direct, -1, a.firstToken())
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(a.end), 1.1)
	return labs.Frame{
		Final:  true,
		Status: labs.JoinNotes(v.finalStatus(a, seen, direct), notes...),
		Stats:  v.stats(a, h, seen),
		Text:   v.text(seen, true),
		Charts: []labs.Chart{v.chart(a, h, 0, true)},
		Tables: v.tables(h),
	}, nil
}

func (v *view) finalStatus(a answer, seen, direct screen) string {
	got := fmt.Sprintf("%s wrote %s from %s to %s. The reader's first word showed at %s and the last at %s, in %s.",
		a.maker(), labs.Count(len(a.tokens), "token"), labs.FormatMS(labs.Millis(a.firstToken())), labs.FormatMS(labs.Millis(a.end)),
		labs.FormatMS(labs.Millis(seen.firstWord)), labs.FormatMS(labs.Millis(seen.lastWord)), labs.Count(seen.bursts, "burst"))
	if !v.s.proxy.buffers() {
		return got
	}
	return got + fmt.Sprintf(" Without the buffering proxy the first word would have shown at %s, in %s.",
		labs.FormatMS(labs.Millis(direct.firstWord)), labs.Count(direct.bursts, "burst"))
}

// stats are the headline figures, all read off the browser's arrivals.
func (v *view) stats(a answer, h hops, seen screen) []labs.Stat {
	out := []labs.Stat{
		{Key: statFirstWord, Label: "First word at the browser", Value: labs.Millis(seen.firstWord), Unit: "ms",
			Note: fmt.Sprintf("%s first token was at %s", a.whose(), labs.FormatMS(labs.Millis(a.firstToken()))),
			Why:  v.whyFirstWord(a, h, seen)},
		{Key: statLastWord, Label: "Last word at the browser", Value: labs.Millis(seen.lastWord), Unit: "ms",
			Note: fmt.Sprintf("%s last token was at %s", a.whose(), labs.FormatMS(labs.Millis(a.end)))},
		{Key: statBursts, Label: "Bursts the browser saw", Value: float64(seen.bursts), Unit: burstUnit(seen.bursts),
			Note: fmt.Sprintf("network reads that added text, for %s", labs.Count(len(a.tokens), "token"))},
		{Key: statLongest, Label: "Longest wait between bursts", Value: labs.Millis(seen.longestGap), Unit: "ms",
			Note: "counted from " + a.whose() + " first token"},
	}
	labs.Explain(out, v.why(a, h, seen))
	return out
}

// whyFirstWord is the sum behind the first word: the GPU's first token,
// then whatever the proxy added, and which of the two dominated.
func (v *view) whyFirstWord(a answer, h hops, seen screen) string {
	first := a.firstToken()
	gpu := fmt.Sprintf("The GPU made the first token at %s: the %s-token prompt read in one prefill step on the %s tier, plus any queue on the shared engine. "+
		"The gateway turned the provider's event into its own at once.", inMS(first), labs.Thousands(a.prompt), v.s.tier.Name)
	if a.server != "" {
		gpu = fmt.Sprintf("Measured on %s, the first token came back %s after the %s-token prompt was sent. "+
			"The gateway turned the provider's event into its own at once.", a.server, inMS(first), labs.Thousands(a.prompt))
	}
	if a.thought > 0 && a.firstAnswer() > 0 {
		first = a.firstAnswer()
		gpu += fmt.Sprintf(" The model then thought for %s, which is no word for the reader: its first answer token came at %s.",
			labs.Count(a.thought, "token"), inMS(first))
	}
	wait := seen.firstWord - first
	if !v.s.proxy.buffers() || wait <= 0 {
		return gpu + fmt.Sprintf(" Nothing on the way held it: first word = %s + 0 ms in transit = %s. %s time is all of it.",
			inMS(first), inMS(seen.firstWord), a.maker()+"'s")
	}
	why := v.releaseReason(a, h, seen.firstWord)
	dominant := "the wait in the proxy dominated"
	if wait < first {
		dominant = a.whose() + " first token still dominated"
	}
	where := "on the GPU"
	if a.server != "" {
		where = "from that server"
	}
	return gpu + fmt.Sprintf(" The proxy held it until %s, when %s. First word = %s %s + %s in the proxy = %s: %s.",
		inMS(seen.firstWord), why, inMS(first), where, inMS(wait), inMS(seen.firstWord), dominant)
}

// inMS writes d in whole milliseconds, the one unit of the arithmetic.
func inMS(d time.Duration) string { return labs.Thousands(int(math.Round(labs.Millis(d)))) + " ms" }

// releaseReason says why the proxy let bytes go at time at.
func (v *view) releaseReason(a answer, h hops, at time.Duration) string {
	p := v.s.proxy
	switch {
	case at == a.end:
		return "the answer was complete and the proxy passed on all it held"
	case p.flush > 0 && len(h.gateway) > 0 && (at-h.gateway[0].at)%p.flush == 0 && !writtenAt(h.gateway, at):
		return fmt.Sprintf("its %s flush timer fired", inMS(p.flush))
	}
	return fmt.Sprintf("its %s-byte buffer filled (about %s of events)", labs.Thousands(p.size), labs.Count(tokensIn(h.gateway, p.size), "token"))
}

// writtenAt says whether the gateway wrote at exactly time at.
func writtenAt(cs []chunk, at time.Duration) bool {
	for _, c := range cs {
		if c.at == at {
			return true
		}
	}
	return false
}

// tokensIn is how many of the gateway's writes fill size bytes.
func tokensIn(cs []chunk, size int) int {
	n, total := 0, 0
	for _, c := range cs {
		if total >= size {
			break
		}
		total += len(c.data)
		n++
	}
	return n
}

// burstUnit is the bursts card's unit, singular for one.
func burstUnit(n int) string {
	if n == 1 {
		return "burst"
	}
	return "bursts"
}
