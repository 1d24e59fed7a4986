package stack

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/latencylab/latencylab/labs"
)

// Rows of a hop table: the first writes and the last few, since a long
// answer has hundreds of them and the pattern shows in a handful.
const (
	headRows = 4
	tailRows = 3
	rawRunes = 180 // of one write's bytes shown in a cell
)

// tables are the raw events on each hop: the provider's writes, the
// gateway's, and the proxy's writes to the browser with the events each
// completed there.
func (v *view) tables(h hops) []labs.Table {
	prov := hopTable(fmt.Sprintf("Hop 1: the provider's stream (%s), %s", v.s.format.Label, sizeNote(h.provider)),
		[]string{"At (ms)", "Bytes", "Raw bytes as written"}, h.provider, nil)
	gw := hopTable("Hop 2: the gateway's own stream, the same for either provider, "+sizeNote(h.gateway),
		[]string{"At (ms)", "Bytes", "Raw bytes as written"}, h.gateway, nil)
	title := "Hop 3: what the browser received (no proxy in the way)"
	switch {
	case v.s.proxy.buffers():
		title = "Hop 3: what the buffering proxy passed to the browser"
	case v.s.proxy.on:
		title = "Hop 3: what the proxy passed to the browser, buffering off"
	}
	events := func(i int) string { return labs.Thousands(h.browser[i].events) }
	br := hopTable(title+", "+labs.Count(len(h.proxied), "network write"),
		[]string{"At (ms)", "Bytes", "Events it completed", "Raw bytes (start)"}, h.proxied, events)
	return []labs.Table{prov, gw, br}
}

// hopTable lists a hop's writes: time, size, optionally a column of its
// own, and the bytes made visible. Long hops show their head and tail.
func hopTable(title string, cols []string, cs []chunk, extra func(int) string) labs.Table {
	t := labs.Table{Title: title, Columns: cols}
	for i, c := range cs {
		if len(cs) > headRows+tailRows+1 && i == headRows {
			gap := make([]string, len(cols))
			gap[len(cols)-1] = fmt.Sprintf("… %s more writes …", labs.Thousands(len(cs)-headRows-tailRows))
			t.Rows = append(t.Rows, gap)
		}
		if len(cs) > headRows+tailRows+1 && i >= headRows && i < len(cs)-tailRows {
			continue
		}
		row := []string{labs.Thousands(int(math.Round(labs.Millis(c.at)))), labs.Thousands(len(c.data))}
		if extra != nil {
			row = append(row, extra(i))
		}
		t.Rows = append(t.Rows, append(row, showBytes(c.data)))
	}
	return t
}

// sizeNote is a hop's byte count and bytes per write.
func sizeNote(cs []chunk) string {
	n := bytesOf(cs)
	if len(cs) == 0 {
		return "nothing written yet"
	}
	return fmt.Sprintf("%s bytes in %s (about %s a write)", labs.Thousands(n), labs.Count(len(cs), "write"), labs.Thousands(n/len(cs)))
}

// wireEscapes make a stream's framing visible: each line end is written
// as the two characters \n (or \r), so no raw line end of the provider's
// bytes ever reaches a page or the lab's own event stream.
var wireEscapes = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\t", `\t`, "\x00", `\0`)

// showBytes is b as a learner reads it: line ends and other control
// characters escaped, invalid UTF-8 as U+FFFD, cut after rawRunes
// characters.
func showBytes(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	s = wireEscapes.Replace(s)
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return '\uFFFD'
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > rawRunes {
		s = string([]rune(s)[:rawRunes]) + "…"
	}
	return s
}
