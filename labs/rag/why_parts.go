package rag

import (
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

// passagesHeading opens the passages' message (pipeline's formatChunks).
const passagesHeading = "Knowledge-base passages:"

// partsWhy are the formulas of the prompt's parts, recounted from the
// messages the pipeline sent: each message is its text's tokens plus the
// chat template's markers around it. The pipeline counted the parts as it
// assembled them; recounting the messages checks that the two agree.
func (v *view) partsWhy() map[string]labs.Formula {
	msgs := v.res.Prompt.Messages
	out := map[string]labs.Formula{}
	if len(msgs) < 2 {
		return out
	}
	sys := msgs[0]
	f := labs.Sum("tokens", labs.Term{Name: "instructions", Value: float64(textmodel.Count(strings.TrimSpace(sys.Content)))},
		labs.Term{Name: "the message's template markers", Value: float64(markers(sys.Role))})
	f.Before = "System prompt = its text, counted by the tokenizer, + the chat template's markers around the message:"
	out[statSystemTokens] = f

	first := 1 // history starts after the system prompt and any passages
	if len(msgs) > 2 && strings.HasPrefix(msgs[1].Content, passagesHeading) {
		out[statChunksTokens] = passagesWhy(msgs[1])
		first = 2
	} else {
		out[statChunksTokens] = labs.Formula{Unit: "tokens", Expr: "no passages", Before: "Passages = the retrieved passages' message:",
			After: "Top-k is 0, or nothing matched the question."}
	}
	kept := v.res.Prompt.HistoryKept
	hist := labs.Formula{Unit: "tokens", Expr: "no earlier turns", Before: "History = every earlier turn kept, each with its markers:"}
	if start := len(msgs) - 1 - kept; kept > 0 && start >= first {
		terms := make([]labs.Term, 0, kept)
		for i, m := range msgs[start : len(msgs)-1] {
			terms = append(terms, labs.Term{Name: fmt.Sprintf("turn %d's %s", i/2+1, turnPart(m.Role)), Value: float64(msgTokens(m))})
		}
		hist = labs.Sum("tokens", terms...)
		hist.Before = fmt.Sprintf("History = the %s kept, each counted with its markers:", labs.Count(kept, "earlier message"))
	}
	out[statHistoryTokens] = hist
	ans := labs.Formula{Unit: "tokens", Result: float64(textmodel.Count(v.answer)),
		Before: fmt.Sprintf("Answer = the text streamed to the reader, counted again by the tokenizer; the model stops when its answer is done, or at %s tokens:", labs.Thousands(answerCap)),
		Expr:   fmt.Sprintf("the %s characters shown", labs.Thousands(len([]rune(v.answer)))), Remainder: "tokens the tokenizer joins differently when it reads the text back"}
	out[statAnswerTokens] = ans
	return out
}

// turnPart names a history message by its role.
func turnPart(role string) string {
	if role == textmodel.RoleAssistant {
		return "answer"
	}
	return "question"
}

// passagesWhy splits the passages' message into its heading, each
// passage (number, title and text) and the template's markers.
func passagesWhy(m textmodel.Message) labs.Formula {
	heading, counts := passageTokens(m)
	each := make([]string, len(counts))
	passages := 0
	for i, n := range counts {
		each[i] = labs.Thousands(n)
		passages += n
	}
	mk := markers(m.Role)
	f := labs.Formula{Unit: "tokens", Result: float64(heading + passages + mk),
		Parts: []labs.Term{{Name: "the heading", Value: float64(heading)}, {Name: "the passages", Value: float64(passages)},
			{Name: "the template markers", Value: float64(mk)}},
		Before: fmt.Sprintf("Passages = the heading + each of the %s passages (its number, title and text) + the message's template markers:", labs.Thousands(len(each))),
		Expr: fmt.Sprintf("heading %s + passages (%s) %s + markers %s", labs.Thousands(heading), strings.Join(each, " + "),
			labs.Thousands(passages), labs.Thousands(mk))}
	return f
}

// passageTokens counts the passages' message as the prompt holds it:
// its heading, then what each passage (its number, title and text) adds.
// Each count is what the passage adds to the message's count, so they add
// up to the message exactly however the tokenizer joins them.
func passageTokens(m textmodel.Message) (heading int, each []int) {
	text := strings.TrimSpace(m.Content)
	var cuts []int
	for i := 1; ; i++ {
		at := strings.Index(text, fmt.Sprintf("\n[%d] ", i))
		if at < 0 {
			break
		}
		cuts = append(cuts, at)
	}
	cuts = append(cuts, len(text))
	heading = textmodel.Count(text[:cuts[0]])
	prev := heading
	for _, c := range cuts[1:] {
		n := textmodel.Count(text[:c])
		each = append(each, n-prev)
		prev = n
	}
	return heading, each
}

// msgTokens is a message's tokens as the chat template renders it.
func msgTokens(m textmodel.Message) int {
	return len(textmodel.PromptTokens([]textmodel.Message{m})) - len(textmodel.PromptTokens(nil))
}

// markers are the template's tokens around a message of role: its
// header and its end-of-turn mark.
func markers(role string) int { return msgTokens(textmodel.Message{Role: role}) }
