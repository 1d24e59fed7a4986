package cancellation

import (
	"fmt"
	"slices"

	"github.com/latencylab/latencylab/labs"
)

// On a server the lab cannot count what the engine generated: the count
// comes from the bundled engine's step trace, and a server reports no
// steps. A run there shows only what it measured (the tokens delivered
// and saved); the generated count, the tokens after the cut and the cost
// saved (labs.NotMeasuredStats) are left to the bundled engine's run in
// the comparison, rather than shown as the 0 an empty trace gives.

// measuredOnly drops, on a server run, the stats it cannot measure.
func (v *view) measuredOnly(stats []labs.Stat) []labs.Stat {
	if !v.onServer {
		return stats
	}
	return slices.DeleteFunc(stats, func(st labs.Stat) bool { return !labs.MeasuredOnServer(Slug, st.Key) })
}

// serverStatus is the final status of a run on a server: what the reader
// got and what was saved, and where the tokens generated are counted.
func (v *view) serverStatus(one turnOne, status string) string {
	c := one.client
	elsewhere := "That server does not report how many tokens it generated; the bundled engine's run in the comparison counts them."
	switch {
	case c.stopped && v.s.propagate:
		return fmt.Sprintf("You left after %s and the disconnect was passed on to that server. The partial answer was %s and came back as turn 2's history. %s",
			labs.Count(c.delivered, "token"), status, elsewhere)
	case c.stopped:
		return fmt.Sprintf("You left after %s but the disconnect was never passed upstream, so that server kept writing the answer, and each token it wrote is billed. The partial answer was %s. %s",
			labs.Count(c.delivered, "token"), status, elsewhere)
	case c.errShown != "":
		return fmt.Sprintf("The stream broke after %s; the reader was shown the error under the partial answer, which was %s and came back as turn 2's history. %s",
			labs.Count(c.delivered, "token"), status, elsewhere)
	}
	return fmt.Sprintf("Read to the end: %s shown, %s.", labs.Count(c.delivered, "token"), status)
}

// savedParts splits a saved answer's tokens into the model's thinking and
// the answer the reader saw: a reasoning model's thinking is counted with
// the answer it came before.
func savedParts(delivered, thinking int) labs.Formula {
	if thinking <= 0 {
		return labs.Formula{Unit: "tokens", Result: float64(delivered), Expr: fmt.Sprintf("%s delivered", labs.Thousands(delivered))}
	}
	return labs.Tally("tokens", labs.Term{Name: "thinking before the answer", Value: float64(thinking)},
		labs.Term{Name: "answer delivered", Value: float64(delivered)})
}

// tokensCell is a saved answer's token count for the conversation table,
// with a reasoning model's thinking named apart.
func tokensCell(output, thinking int) string {
	if thinking <= 0 {
		return labs.Thousands(output)
	}
	return fmt.Sprintf("%s (thinking %s + answer %s)", labs.Thousands(output), labs.Thousands(thinking), labs.Thousands(max(output-thinking, 0)))
}
