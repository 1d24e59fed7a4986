package pipelinelab

import (
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// stageNames are how a first-word formula names the stages before the
// model, as the trace records them.
var stageNames = map[string]string{
	pipeline.StageGuardrail: "guardrail",
	pipeline.StagePrompt:    "prompt and gateway",
	pipeline.StageCache:     "cache check",
	pipeline.StageHelper:    "helper model call",
}

// FirstWordParts are the parts of a pipeline request's first word, read
// from its own trace: each stage before the model, every attempt that
// gave up, and the answering model's first token.
func FirstWordParts(res *pipeline.Result) []labs.Term {
	var parts []labs.Term
	for _, sp := range res.Spans {
		if sp.Stage == pipeline.StageContext {
			parts = append(parts, labs.Term{Name: lookupsName(res.Spans, sp), Value: MS(sp.Duration())})
			continue
		}
		if name, ok := stageNames[sp.Stage]; ok {
			parts = append(parts, labs.Term{Name: name, Value: MS(sp.Duration())})
		}
	}
	for _, a := range res.Attempts {
		if a.FirstToken == 0 {
			parts = append(parts, labs.Term{Name: fmt.Sprintf("failed attempt on %s (%s)", a.Tier, a.Outcome), Value: MS(a.End - a.Start)})
			continue
		}
		parts = append(parts, labs.Term{Name: "model first token (" + a.Tier + ")", Value: MS(a.FirstToken - a.Start)})
		break
	}
	return parts
}

// lookupsName names the context stage by how its lookups combined: the
// slowest of them when they ran side by side, their sum in a row.
func lookupsName(spans []pipeline.Span, group pipeline.Span) string {
	var sum, slowest time.Duration
	name := ""
	for _, sp := range spans {
		switch sp.Stage {
		case pipeline.StageHistory, pipeline.StageRetrieval, pipeline.StageOrder:
			sum += sp.Duration()
			if sp.Duration() > slowest {
				slowest, name = sp.Duration(), sp.Stage
			}
		}
	}
	if name != "" && sum > group.Duration()+time.Millisecond {
		return "lookups side by side, the slowest (" + name + ")"
	}
	return "lookups"
}

// FirstWord is the formula of a pipeline request's first word.
func FirstWord(res *pipeline.Result) labs.Formula {
	parts := FirstWordParts(res)
	f := labs.Sum("ms", parts...)
	f.Before = "First word = every stage before the model + the model's first token:"
	if sm := res.Summary; sm.ThinkingTokens > 0 && sm.Thinking > 0 {
		// A reasoning model's first token was thinking: the first word
		// waits for the answer after it.
		f = labs.Sum("ms", append(parts, labs.Term{Name: fmt.Sprintf("the model's thinking (%s)", labs.Count(sm.ThinkingTokens, "token")), Value: MS(sm.Thinking)})...)
		f.Before = "First word = every stage before the model + the model's first token + its thinking, which is no word for the reader:"
	}
	f.Remainder = "the hand-overs between stages and, for a blocked answer, the wait for its last token"
	return f
}

// Complete is the formula of an answer's total time: its first word, then
// the rest of the answer at the measured time per output token. tokens
// counts the answer's own (AnswerTokens): a reasoning model's thinking is
// already in its first word.
func Complete(firstWord, total float64, tokens int) labs.Formula {
	f := labs.Formula{Unit: "ms", Result: total}
	if tokens < 2 || total <= firstWord {
		f.Expr = "first word " + labs.Figure(firstWord)
		f.Result = firstWord
		f.Remainder = "the answer arriving all at once"
		return f
	}
	tpot := (total - firstWord) / float64(tokens-1)
	rest := tpot * float64(tokens-1)
	f.Expr = fmt.Sprintf("first word %s + %s more tokens × %s ms per token", labs.Figure(firstWord), labs.Thousands(tokens-1), labs.Factor(tpot, tokens-1))
	f.Result = firstWord + rest
	f.Before = "Total = first word + the rest of the answer at the time per output token:"
	f.Parts = []labs.Term{{Name: "the first word", Value: firstWord}, {Name: "writing the rest", Value: rest}}
	return f
}

// AnswerTokens is how many tokens of a result were answer, not thinking.
func AnswerTokens(sm pipeline.Summary) int { return max(sm.OutputTokens-sm.ThinkingTokens, 0) }
