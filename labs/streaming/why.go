package streaming

import (
	"fmt"
	"strconv"

	"github.com/latencylab/latencylab/labs"
)

// why are the formulas of the figures the roofline panels (labs.Why) do
// not cover, from the meter's own times: the first word, the total, the
// generation speed and the reading time.
func (v *view) why(m *meter) map[string]labs.Formula {
	if !m.done || m.tokens == 0 {
		return nil
	}
	first, tpot := labs.Millis(m.firstTok), m.tpotMS()
	out := map[string]labs.Formula{}
	tokens := labs.Tally("tokens", labs.Term{Name: "from the prefill step", Value: 1},
		labs.Term{Name: "one per decode step", Value: float64(m.tokens - 1)})
	tokens.Lead = fmt.Sprintf("The answer length you set is %s, and the model wrote all of it", labs.Count(v.s.answerTokens, "token"))
	if m.tokens != v.s.answerTokens {
		tokens.Lead = fmt.Sprintf("The answer ended after %s of the %s you set", labs.Thousands(m.tokens), labs.Count(v.s.answerTokens, "token"))
	}
	tokens.Before = "Tokens:"
	if m.thought > 0 {
		tokens = labs.Tally("tokens", labs.Term{Name: "thinking", Value: float64(m.thought)},
			labs.Term{Name: "answer", Value: float64(m.tokens - m.thought)})
		tokens.Before = "Tokens, as the server wrote them:"
		tokens.Lead = fmt.Sprintf("The answer length you set is %s; a reasoning model's thinking counts against it", labs.Count(v.s.answerTokens, "token"))
	}
	out[statTokens] = tokens
	if m.words > 0 {
		f := firstWordWhy(m, "until a whole word had arrived", "First word = the first token + the tokens it took to finish a word:")
		if !m.streaming {
			f = labs.Sum("ms", labs.Term{Name: "first token", Value: first},
				labs.Term{Name: "the rest of the answer, held back", Value: labs.Millis(m.firstWord - m.firstTok)})
			f.Before = "Blocking: the first word waits for the whole answer:"
		}
		out[statFirstWord] = f
	}
	if m.tokens > 1 && tpot > 0 {
		rest := tpot * float64(m.tokens-1)
		out[statTotal] = labs.Formula{Unit: "ms", Result: first + rest,
			Before: "Total = TTFT + the other tokens × TPOT:",
			Expr:   fmt.Sprintf("first token %s + %s tokens × %s ms", labs.Figure(first), labs.Thousands(m.tokens-1), labs.Factor(tpot, m.tokens-1)),
			Parts:  []labs.Term{{Name: "the first token", Value: first}, {Name: "writing the rest", Value: rest}}}
		out[statTokPerS] = labs.Formula{Unit: "tok/s", Result: 1000 / tpot,
			Expr: fmt.Sprintf("1,000 ms ÷ %s ms per token", labs.Figure(tpot)),
			Lead: "One decode step per token, so the step time sets the speed"}
	}
	if m.words > 0 && v.s.readingSpeed > 0 {
		out[statReading] = labs.Formula{Unit: "ms", Result: readingMS(m.words, v.s.readingSpeed),
			Expr: fmt.Sprintf("%s words ÷ %s words/s", labs.Thousands(m.words), strconv.FormatFloat(v.s.readingSpeed, 'f', -1, 64)),
			Lead: "Reading, not generation, is the slow side: the answer is written long before it is read"}
	}
	return out
}

// firstWordWhy is a streamed first word as its first token plus the
// tokens that finished the word (named rest, after before), or, when the
// first token already held a word, says so instead of adding nothing.
func firstWordWhy(m *meter, rest, before string) labs.Formula {
	if m.thoughtFirst > 0 {
		f := labs.Sum("ms", labs.Term{Name: "first token", Value: labs.Millis(m.firstTok)},
			labs.Term{Name: labs.Count(m.thoughtFirst-1, "more thinking token"), Value: labs.Millis(m.firstAnswer - m.firstTok)},
			labs.Term{Name: rest, Value: labs.Millis(m.firstWord - m.firstAnswer)})
		f.Before = "The model thought before it answered, and thinking is no word for the reader. First word = the first token + the thinking + the answer tokens that finish a word:"
		return f
	}
	if m.firstWord == m.firstTok {
		return labs.Formula{Unit: "ms", Result: labs.Millis(m.firstTok), Expr: "first word = first token",
			Before: "The first token already held a whole word, so the reader waited for nothing more:"}
	}
	f := labs.Sum("ms", labs.Term{Name: "first token", Value: labs.Millis(m.firstTok)},
		labs.Term{Name: rest, Value: labs.Millis(m.firstWord - m.firstTok)})
	f.Before = before
	return f
}
