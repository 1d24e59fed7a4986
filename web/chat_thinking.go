package web

import (
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/views"
)

// thinkingWithheld is why a reader sees no thinking when an output check
// is on.
const thinkingWithheld = "Its text is not shown: the output check reads only the answer, so unchecked thinking stays off the screen."

// thinking records a thinking event in the live figures.
func (f *chatFigures) thinking(ev pipeline.Event) {
	if f.ThinkingMs == nil {
		f.thinkFrom = ev.At
	}
	if !f.answering {
		f.thinkTo = ev.At
	}
	f.ThinkingMs = ms(f.thinkTo - f.thinkFrom)
	f.ThinkingTokens += ev.Tokens
	f.OutputTokens += ev.Tokens
	f.ThinkingHidden = f.ThinkingHidden || ev.Hidden
}

// thinkingValue is the thinking figure: its time and its tokens.
func (f chatFigures) thinkingValue() string {
	return views.FormatValue(*f.ThinkingMs, "ms") + " · " + views.FormatValue(float64(f.ThinkingTokens), "tokens")
}

// thinkingView is the thinking block of an answer, nil when the model did
// not think. active is set while it still thinks and no answer has come.
func (f chatFigures) thinkingView(text string, active bool) *views.ChatThinking {
	if f.ThinkingMs == nil {
		return nil
	}
	// Models open their thinking with a line end or a space.
	t := &views.ChatThinking{Text: strings.TrimLeft(text, " \t\n"), Active: active, Summary: "Thought for " + f.thinkingValue()}
	if f.ThinkingHidden {
		t.Hidden = thinkingWithheld
	}
	return t
}

// figuresNote says, under an answer's figures, why its first word came
// well after its first token: the model thought first.
func (f chatFigures) figuresNote() string {
	if f.ThinkingMs == nil {
		return ""
	}
	return fmt.Sprintf("This model thinks before it answers: its first token was a thinking token, and the first word came only after %s of thinking.",
		views.FormatValue(*f.ThinkingMs, "ms"))
}
