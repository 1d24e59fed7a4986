package pipeline

import "time"

// Summary holds the headline figures of a run, on the modelled timeline
// (see Span), with the handler's times beside them.
type Summary struct {
	// FirstToken is the model's time to first token: from the start of
	// the attempt that answered to its first token of any kind (a
	// reasoning model's first thinking token counts).
	FirstToken time.Duration
	// FirstWord is what the user waits: request start to the first
	// answer text. A reasoning model's thinking comes before it: time to
	// first token, but no word the reader can use.
	FirstWord time.Duration
	// Thinking is how long a reasoning model thought: from its first
	// thinking token to its first answer text (to its last thinking token
	// when no answer came); 0 when it did not think.
	Thinking time.Duration
	// ThinkingTokens counts the tokens of its thinking.
	ThinkingTokens int
	// ThinkingHidden says the thinking was withheld from the reader
	// because an output check reads only the answer (see OutputChecker).
	ThinkingHidden bool
	// Total is request start to the last text (the answer complete), or
	// to the last thinking token when every token was thinking.
	Total time.Duration
	// Elapsed is the handler's time for the whole run, saving the
	// messages included.
	Elapsed time.Duration
	// Handler is when the first and last text reached the handler: the
	// modelled times plus whatever a busy host added.
	Handler      HandlerTimes
	PromptTokens int
	OutputTokens int
	Cost         float64 // US dollars, every attempt included
}

// Result is a finished run.
type Result struct {
	ID     string
	Status string
	// Text is exactly what the user was shown of the answer.
	Text string
	// Reasoning is what the user was shown of a reasoning model's
	// thinking, apart from the answer; empty when it was withheld.
	Reasoning string
	// Message explains a status other than complete, for the user.
	Message      string
	Err          error
	Tier         string // the tier that answered (or was replayed from cache)
	Cached       bool
	FinishReason string
	Verdict      Verdict
	Lookups      Lookups
	Prompt       Prompt
	Attempts     []Attempt
	Usage        Usage
	Spans        []Span
	Summary      Summary
	SaveErr      error
}

// userMessage explains an ending to the user.
func userMessage(status string) string {
	switch status {
	case StatusBlocked:
		return "Sorry, I can't help with that message. Please rephrase your question about your order or our service."
	case StatusError:
		return "The answer broke off because the model failed, so it is incomplete. Please ask again."
	case StatusTimeout:
		return "The answer took longer than allowed and was cut off here."
	case StatusCancelled:
		return "Stopped."
	}
	return ""
}

// HandlerTimes are figures on the handler's clock, since the request start.
type HandlerTimes struct {
	FirstWord time.Duration
	Total     time.Duration
}
