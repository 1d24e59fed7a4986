package budget

import (
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// A reasoning model on a server thinks between its first token and its
// first answer word. The panels count that wait in the model's time to
// the first word, so the waterfall draws it as its own row and the stage
// table names the model's row the same way; a request that only thought
// has no first word at all, and its end is its last token, not the last
// answer text (which never came).

// thinkingRow labels the waterfall's row of a reasoning model's thinking.
const thinkingRow = "thinking"

// noAnswerWord reports whether the request ended without one answer word:
// every token its model wrote was thinking.
func noAnswerWord(res *pipeline.Result) bool {
	return res.Summary.FirstWord == 0 && res.Summary.ThinkingTokens > 0
}

// requestEnd is when the request's last token came: the last answer text,
// or, when no answer word came, the model's last (thinking) token.
func requestEnd(res *pipeline.Result) time.Duration {
	if !noAnswerWord(res) {
		return res.Summary.Total
	}
	end := res.Summary.Total
	for _, sp := range res.Spans {
		if sp.Stage == pipeline.StageDecode || sp.Stage == pipeline.StageFirstToken {
			end = max(end, sp.End)
		}
	}
	return end
}

// thinkingSpan is when the model thought: from its first token (which was
// thinking) for as long as the summary says; ok is false when it did not.
func thinkingSpan(res *pipeline.Result) (start, end time.Duration, ok bool) {
	if res == nil || res.Summary.ThinkingTokens == 0 || res.Summary.Thinking <= 0 {
		return 0, 0, false
	}
	dec, found := spanOf(res.Spans, pipeline.StageDecode)
	if !found {
		return 0, 0, false
	}
	return dec.Start, min(dec.Start+res.Summary.Thinking, dec.End), true
}

// splitThinking draws a finished request's decode span as two rows, its
// thinking and then its writing, when its model thought; rows is the
// writing row alone otherwise.
func splitThinking(res *pipeline.Result, writing labs.SpanRow) []labs.SpanRow {
	start, end, ok := thinkingSpan(res)
	if !ok {
		return []labs.SpanRow{writing}
	}
	think := labs.SpanRow{Label: thinkingRow, Spans: []labs.Span{{Name: thinkingRow, Start: pipelinelab.MS(start), End: pipelinelab.MS(end)}}}
	var kept []labs.Span
	for _, sp := range writing.Spans {
		sp.Start = max(sp.Start, pipelinelab.MS(end))
		if sp.End > sp.Start {
			kept = append(kept, sp)
		}
	}
	writing.Spans = kept
	return []labs.SpanRow{think, writing}
}

// thoughtOnlyWhy is the complete time of a request whose model wrote only
// thinking: every stage before the model, its first token and its
// thinking, to the last token.
func thoughtOnlyWhy(res *pipeline.Result) labs.Formula {
	f := pipelinelab.FirstWord(res)
	f.Before = "Complete = every stage before the model + the model's first token + its thinking, which ran to the last token with no answer word:"
	f.Remainder = "the hand-overs between stages"
	return f
}

// modelRowName names the stage table's model row: the first token on the
// virtual clock, or, when the batch reuses the one request's model time,
// that request's wait for its first word, as the panels call it.
func modelRowName(reused, thought bool) string {
	switch {
	case reused && thought:
		return "model: to the first word (thinking included)"
	case reused:
		return "model: to the first word"
	}
	return "model: first token"
}
