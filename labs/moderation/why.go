package moderation

import (
	"fmt"
	"math"
	"time"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// why are the formulas of a finished single-policy run's figures, each
// from the meter's own times: when every token left the model and when
// it reached the reader.
func why(m *meter) map[string]labs.Formula {
	out := map[string]labs.Formula{}
	if m.checks > 0 {
		out[statModeration] = labs.Formula{Unit: "ms", Result: labs.Millis(m.checkTime),
			Expr: fmt.Sprintf("%s × %s ms per check", labs.Count(m.checks, "check"), labs.Figure(labs.Millis(m.checkTime)/float64(m.checks))),
			Lead: "Each check costs the moderation service's modelled latency (the detectors' own CPU time is left out: it depends on the server, not the policy); more, smaller windows mean more checks"}
	}
	n := len(m.pieces)
	if !m.done || n == 0 {
		return out
	}
	countsWhy(m, out)
	tpot := tpotOf(m)
	if f, ok := firstWordWhy(m); ok {
		out[statFirstWord] = f
	}
	if m.fin != none {
		k := upTo(m, m.fin)
		f := labs.Sum("ms", labs.Term{Name: "network to the provider and back", Value: labs.Millis(m.network)},
			labs.Term{Name: "model first token", Value: labs.Millis(m.firstToken - m.network)},
			labs.Term{Name: fmt.Sprintf("writing %s more tokens", labs.Thousands(k-1)), Value: labs.Millis(m.genAt[k-1] - m.firstToken)},
			labs.Term{Name: "checks and release after that", Value: labs.Millis(max(m.fin-m.genAt[k-1], 0))})
		f.Before = "Total = generation up to the end of delivery + what moderation added after it:"
		if k < n {
			f.After = fmt.Sprintf("Delivery ended at token %s; the model wrote on to token %s, which the reader never saw.", labs.Thousands(k), labs.Thousands(n))
		}
		out[statTotal] = f
	}
	if m.delivered > 0 {
		out[statLag] = lagWhy(m)
	}
	if m.truth != nil && m.truth.afterProblem > 0 && tpot > 0 {
		pe := n - m.truth.afterProblem - 1
		gap := labs.Millis(m.genAt[n-1] - m.genAt[pe])
		f := labs.Formula{Unit: "tokens", Result: gap / tpot,
			Before: "Tokens after the problem = generation rate × time until generation stopped:",
			Expr:   fmt.Sprintf("%s ms after the problem was complete ÷ %s ms per token", labs.Figure(gap), labs.Figure(tpot)),
			Lead:   "Nothing stopped the model, so it wrote to the end of the answer", Remainder: "the uneven pace of the engine's steps"}
		if m.abortAt != none {
			f.Lead = "The abort stopped generation once a failed check reached the engine: the tokens are those written while the window filled and the check ran"
		}
		out[statAfterProblem] = f
	}
	return out
}

// tpotOf is the answer's time per output token after the first.
func tpotOf(m *meter) float64 {
	n := len(m.genAt)
	if n < 2 {
		return 0
	}
	return labs.Millis(m.genAt[n-1]-m.genAt[0]) / float64(n-1)
}

// firstWordWhy: the first word waits for the network and the model's
// first token, then for the rest of the first window to be written, then
// for the check that released it. Each term is a knob's: the round trip,
// the window, the moderation latency. The overlap is not a term: the
// first window has no earlier text, so the overlap is only the end of it
// that the check holds back for the next window.
func firstWordWhy(m *meter) (labs.Formula, bool) {
	if m.firstWord == none || len(m.genAt) == 0 || m.firstWord < m.genAt[0] {
		return labs.Formula{}, false
	}
	k, shown := upTo(m, m.firstWord), "the check that released it"
	if m.delivered > 0 && m.delAt[0] == m.firstWord {
		k = 0 // tokens released with the first word
		for k < m.delivered && m.delAt[k] == m.delAt[0] {
			k++
		}
	} else {
		shown = "the check, then the fallback text shown"
	}
	var parts []labs.Term
	model := m.firstToken - m.network
	if m.promptAt != none {
		parts = append(parts, labs.Term{Name: "prompt check", Value: labs.Millis(m.promptAt)})
		model -= m.promptAt
	}
	parts = append(parts, labs.Term{Name: "network to the provider and back", Value: labs.Millis(m.network)}) // Sum leaves it out at 0
	window, extra := "to fill the window", "the rest of the first window"
	if m.policy == mod.ModerateThenSend {
		window, extra = "of the answer, held whole", "the whole answer"
	}
	checked, nth := k, 0 // the tokens the releasing check read, and which answer check it was
	if c, i, ok := releasingCheck(m, k); ok {
		checked, nth = c.to, i
	}
	parts = append(parts, labs.Term{Name: "model first token", Value: labs.Millis(model)},
		labs.Term{Name: fmt.Sprintf("%s more tokens %s%s", labs.Thousands(checked-1), window, each(checked-1, m.genAt[checked-1]-m.genAt[0])),
			Value: labs.Millis(m.genAt[checked-1] - m.genAt[0])},
		labs.Term{Name: shown, Value: labs.Millis(max(m.firstWord-m.genAt[checked-1], 0))})
	f := labs.Sum("ms", parts...)
	net := ""
	if m.network > 0 {
		net = "the network + "
	}
	f.Before = fmt.Sprintf("First word = %smodel first token + %s × TPOT + the check:", net, extra)
	if checked > k {
		f.After = fmt.Sprintf("The check read %s and released the first %d. It held back the last %d, the overlap, "+
			"to read them again at the head of the next window, so text split between two windows is seen whole before any of it shows. ",
			labs.Count(checked, "token"), k, checked-k)
		if nth == 0 {
			f.After += "The first window has no earlier text to re-read, so the overlap does not delay the first word."
		} else {
			f.After += fmt.Sprintf("The overlap is not shorter than the window, so the checks before this one (%d) released nothing: "+
				"the first word waited for check %d.", nth, nth+1)
		}
	}
	f.After += unevenPace(m, checked)
	f.Remainder = "the hand-over from the check to the reader"
	return f, true
}

// unevenPace is a sentence for the formula when the first checked tokens
// came markedly slower or faster than the answer's mean, so a learner who
// multiplies by the mean TPOT sees why the term differs; "" otherwise.
func unevenPace(m *meter, checked int) string {
	mean := tpotOf(m)
	if checked < 3 || mean <= 0 {
		return ""
	}
	pace := labs.Millis(m.genAt[checked-1]-m.genAt[0]) / float64(checked-1)
	if math.Abs(pace/mean-1) <= 0.15 {
		return ""
	}
	return fmt.Sprintf(" These tokens came at %s ms each against %s ms over the whole answer: "+
		"a step that also prefills other requests' prompts takes longer, so the pace is uneven.", labs.Figure(pace), labs.Figure(mean))
}

// each is the pace of n tokens written in d, " (12.5 ms each)": their
// own pace, which other tenants' prompts can make slower than the
// answer's mean.
func each(n int, d time.Duration) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%s ms each)", labs.Figure(labs.Millis(d)/float64(n)))
}

// releasingCheck is the last answer check that started by the first word
// and covered the k tokens it showed, with its place among the answer's
// checks (0: the first); ok is false when no check did (the stream went
// out unchecked).
func releasingCheck(m *meter, k int) (checkStart, int, bool) {
	for i := len(m.checkStarts) - 1; i >= 0; i-- {
		c := m.checkStarts[i]
		if c.at <= m.firstWord && c.to >= k && c.to <= len(m.genAt) {
			return c, i, true
		}
	}
	return checkStart{}, 0, false
}

// upTo counts the tokens written by t (at least one).
func upTo(m *meter, t time.Duration) int {
	k := 0
	for k < len(m.genAt) && m.genAt[k] <= t {
		k++
	}
	return max(k, 1)
}

// lagWhy splits the mean delivery lag into waiting for the window to fill
// and waiting for its check, token by token.
func lagWhy(m *meter) labs.Formula {
	var fill, check time.Duration
	for i := 0; i < m.delivered; {
		j := i
		for j < m.delivered && m.delAt[j] == m.delAt[i] {
			j++
		}
		last := m.genAt[j-1]
		for k := i; k < j; k++ {
			fill += last - m.genAt[k]
			check += m.delAt[k] - last
		}
		i = j
	}
	d := float64(m.delivered)
	f := labs.Sum("ms", labs.Term{Name: "waiting for the rest of the window to be written", Value: labs.Millis(fill) / d},
		labs.Term{Name: "waiting for its check", Value: labs.Millis(check) / d})
	f.Before = fmt.Sprintf("Mean delivery lag over the %s shown:", labs.Count(m.delivered, "token"))
	if f.Result == 0 {
		f.Lead = "Every token reached the reader the moment it was written"
	}
	return f
}
