package streaming

import (
	"fmt"

	"github.com/latencylab/latencylab/labs"
)

// sideWhy are the formulas of a side-by-side run's figures, from each
// answer's own token times.
func (v *sideView) sideWhy(st, bl *meter) map[string]labs.Formula {
	out := map[string]labs.Formula{}
	writing := func(m *meter) labs.Term {
		return labs.Term{Name: fmt.Sprintf("%s more tokens at %s ms each", labs.Thousands(m.tokens-1), labs.Figure(m.tpotMS())),
			Value: labs.Millis(m.complete - m.firstTok)}
	}
	pace := "the GPU's pace with everything in its batch"
	if v.server != "" {
		pace = "that server's pace, as measured"
	}
	if v.s.speedCap > 0 {
		pace = fmt.Sprintf("held to the speed cap of %s tokens a second", labs.Thousands(v.s.speedCap))
	}
	if st.words > 0 {
		out[statFirstWord] = firstWordWhy(st, "the rest of the first word", "Streamed first word = its first token + the tokens that finish the word:")
	}
	if st.done && st.tokens > 0 {
		f := labs.Sum("ms", labs.Term{Name: "first token", Value: labs.Millis(st.firstTok)}, writing(st))
		f.Before, f.After = "Streamed answer complete = first token + the rest of the answer:", "Writing is "+pace+"."
		out[statStreamedComplete] = f
	}
	if bl.done && bl.tokens > 0 {
		f := labs.Sum("ms", labs.Term{Name: "first token", Value: labs.Millis(bl.firstTok)}, writing(bl))
		f.Before, f.After = "The blocked answer shows nothing until it is whole, so its first word = its completion = first token + the rest of the answer:", "Writing is "+pace+"."
		out[statBlockedComplete], out[statBlockedFirstWord] = f, f
	}
	if st.words > 0 && bl.done {
		out[statHeadStart] = labs.Formula{Unit: "ms", Result: labs.Millis(bl.firstWord - st.firstWord),
			Expr: fmt.Sprintf("blocked first word %s − streamed first word %s", labs.Figure(labs.Millis(bl.firstWord)), labs.Figure(labs.Millis(st.firstWord))),
			Lead: "The blocked reader waits for the whole of a shorter answer; the streamed reader only for a first token"}
	}
	return out
}
