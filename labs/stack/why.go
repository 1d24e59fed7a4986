package stack

import (
	"fmt"
	"strings"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// why are the formulas of the last word, the bursts and the longest wait:
// each split into what the GPU took and what the proxy added, from the
// run's own token times and the proxy's releases.
func (v *view) why(a answer, h hops, seen screen) map[string]labs.Formula {
	if len(a.tokens) == 0 || seen.words == 0 {
		return nil
	}
	out := map[string]labs.Formula{
		statLastWord: lastWordWhy(a, seen),
		statBursts:   v.burstsWhy(a, h),
		statLongest:  v.longestWhy(a, h, seen),
	}
	for k, f := range out {
		out[k] = a.inWords(f)
	}
	return out
}

// inWords names what wrote the tokens in f's sentences and terms: the
// formulas speak of the GPU, which on a server run is that server.
func (a answer) inWords(f labs.Formula) labs.Formula {
	if a.server == "" {
		return f
	}
	r := strings.NewReplacer("the GPU", "that server", "The GPU", "That server")
	f.Before, f.After, f.Expr, f.Lead = r.Replace(f.Before), r.Replace(f.After), r.Replace(f.Expr), r.Replace(f.Lead)
	parts := make([]labs.Term, len(f.Parts))
	for i, p := range f.Parts {
		parts[i] = labs.Term{Name: r.Replace(p.Name), Value: p.Value}
	}
	f.Parts = parts
	return f
}

// lastTokenBy is the index of the GPU's last token made by time at.
func lastTokenBy(a answer, at time.Duration) int {
	i := 0
	for j, t := range a.tokens {
		if t.at <= at {
			i = j
		}
	}
	return i
}

// perToken names n tokens (kind: "" or "more ") written over d, with the
// time each took.
func perToken(n int, kind string, d time.Duration) string {
	switch n {
	case 0:
		return "no tokens"
	case 1:
		return fmt.Sprintf("1 %stoken (%s ms)", kind, labs.Figure(labs.Millis(d)))
	}
	return fmt.Sprintf("%s %stokens (%s ms each)", labs.Thousands(n), kind, labs.Figure(labs.Millis(d)/float64(n)))
}

// lastWordWhy is the last word as the GPU's first token, the rest of the
// answer at its decode pace and what the proxy still held after the last
// token.
func lastWordWhy(a answer, seen screen) labs.Formula {
	first := a.firstToken()
	i := lastTokenBy(a, seen.lastWord)
	last := a.tokens[i].at
	f := labs.Sum("ms", labs.Term{Name: "the GPU's first token", Value: labs.Millis(first)},
		labs.Term{Name: "the GPU writing " + perToken(i, "more ", last-first), Value: labs.Millis(last - first)},
		labs.Term{Name: "held in the proxy after the last token", Value: labs.Millis(seen.lastWord - last)})
	f.Before = "Last word = the GPU's first token + the rest of the answer, one decode step a token + what the proxy still held at the end:"
	return f
}

// burstsWhy counts the proxy's releases by their cause: a full buffer,
// its flush timer, the end of the answer; without a buffering proxy every
// token's event is a burst of its own.
func (v *view) burstsWhy(a answer, h hops) labs.Formula {
	n := len(a.tokens)
	p := v.s.proxy
	if !p.buffers() {
		return labs.Formula{Unit: burstUnit(n), Result: float64(n),
			Expr:      fmt.Sprintf("%s, each its own event, passed on the moment the gateway wrote it", labs.Count(n, "token")),
			Lead:      "Nothing on the way held any, so each token is a burst",
			Remainder: "tokens that added no text of their own"}
	}
	var full, ticks, end int
	for i, c := range h.proxied {
		switch {
		case i == len(h.proxied)-1 && a.done && len(h.gateway) > 0 && c.at == h.gateway[len(h.gateway)-1].at && len(c.data)%p.size != 0:
			end++
		case len(c.data)%p.size == 0 && writtenAt(h.gateway, c.at):
			full++
		default:
			ticks++
		}
	}
	bytes := bytesOf(h.gateway)
	f := labs.Sum("", labs.Term{Name: fmt.Sprintf("full %s-byte buffers", labs.Thousands(p.size)), Value: float64(full)},
		labs.Term{Name: fmt.Sprintf("flush-timer ticks (every %s ms)", labs.Thousands(int(p.flush/time.Millisecond))), Value: float64(ticks)},
		labs.Term{Name: "the final release at the end", Value: float64(end)})
	f.Unit = burstUnit(int(f.Result))
	f.Before = fmt.Sprintf("Bursts = the times the proxy let go of what it held. The gateway wrote %s bytes for %s (%s a token):",
		labs.Thousands(bytes), labs.Count(n, "token"), labs.Count(bytes/max(n, 1), "byte"))
	switch {
	case full == 0 && ticks == 0:
		f.After = fmt.Sprintf("All %s bytes fit in the %s-byte buffer, so it never filled: the reader got the whole answer at once.", labs.Thousands(bytes), labs.Thousands(p.size))
	case full > 0:
		f.After = fmt.Sprintf("%s bytes ÷ %s bytes a buffer = %.1f buffers' worth.", labs.Thousands(bytes), labs.Thousands(p.size), float64(bytes)/float64(p.size))
	}
	f.Remainder = "releases that completed no event with text (a buffer cut the event in two, or held only the closing events)"
	return f
}

// longestWhy splits the longest wait between bursts into the GPU writing
// the tokens that came in it and the time the proxy held them after.
func (v *view) longestWhy(a answer, h hops, seen screen) labs.Formula {
	from, to := seen.longestFrom, seen.longestFrom+seen.longestGap
	k, last := 0, from
	for _, t := range a.tokens {
		if t.at > from && t.at <= to {
			k, last = k+1, t.at
		}
	}
	f := labs.Sum("ms", labs.Term{Name: "the GPU writing " + perToken(k, "", last-from), Value: labs.Millis(last - from)},
		labs.Term{Name: "held in the proxy after the GPU wrote them", Value: labs.Millis(to - last)})
	if v.s.proxy.buffers() {
		f.Before = fmt.Sprintf("Longest wait = from %s to %s: the GPU writing the tokens the proxy collected meanwhile + the time it still held them after the last:", inMS(from), inMS(to))
		f.After = fmt.Sprintf("The proxy let go at %s because %s.", inMS(to), v.releaseReason(a, h, to))
	} else {
		f.Before = fmt.Sprintf("Longest wait = from %s to %s, the GPU writing the next token:", inMS(from), inMS(to))
		f.After = "Nothing held the tokens: the longest wait is the GPU's longest gap between two of them."
	}
	return f
}
