package moderation

import "fmt"

// Policy is how moderation sits between generation and delivery.
type Policy string

// Policies, in the order the lessons introduce them.
const (
	// NoModeration delivers every token at once and checks nothing: the
	// baseline for time to first word.
	NoModeration Policy = "none"
	// StreamThenModerate delivers every token at once and checks windows
	// behind the delivery front; when a check fails the shown text is
	// replaced, but the reader has already seen it.
	StreamThenModerate Policy = "stream-then-moderate"
	// ModerateThenSend holds the whole answer, checks it once and only
	// then delivers it (or the fallback).
	ModerateThenSend Policy = "moderate-then-send"
	// BufferedWindow holds back a window of tokens, checks it together
	// with the overlap held back from the previous window (the first
	// window has none), and releases only text that passed. On a failed check nothing more is released and a
	// notice follows the text already shown; generation runs on.
	BufferedWindow Policy = "buffered-window"
	// AbortMidStream is a buffered window that, on a failed check, also
	// cancels generation and replaces the shown text with the fallback.
	AbortMidStream Policy = "abort-mid-stream"
)

// Unit is what a window is measured in.
type Unit string

// Window units.
const (
	Tokens    Unit = "tokens"
	Sentences Unit = "sentences"
)

// Policies lists every policy, from the naive to the most careful.
func Policies() []Policy {
	return []Policy{NoModeration, StreamThenModerate, ModerateThenSend, BufferedWindow, AbortMidStream}
}

// Finish reasons a filtered stream ends with (OpenAI's names).
const (
	FinishStop          = "stop"
	FinishContentFilter = "content_filter"
)

// Default texts shown when moderation stops an answer.
const (
	DefaultFallback = "Sorry, I can't share that answer. It was withdrawn by our safety check."
	DefaultNotice   = "[The rest of this answer was withheld by our safety check.]"
	DefaultRefusal  = "Sorry, I can't help with that request."
)

// FilterConfig shapes a Filter.
type FilterConfig struct {
	Policy Policy
	// Unit is what Window and Overlap count: Tokens (the default) or
	// Sentences. In sentences a window ends at a sentence boundary, so
	// half a sentence is never released.
	Unit Unit
	// Window is how many new tokens (or sentences) each check covers
	// (buffered window, abort and stream-then-moderate), like NeMo
	// Guardrails' chunk_size.
	Window int
	// Overlap is how many tokens at the end of each window are held back
	// and checked again at the start of the next, like NeMo's
	// context_size, so text split across two windows is seen whole and
	// none of it is shown first. The first window has no earlier text,
	// so its check comes after Window tokens and releases Window−Overlap.
	// In stream-then-moderate nothing is held; the overlap is only
	// re-read as context.
	Overlap int
	// Fallback replaces the shown text when an answer is withdrawn;
	// Notice follows released text when the rest is withheld. Empty
	// means the defaults.
	Fallback, Notice string
}

// Validate reports a configuration that cannot work.
func (c FilterConfig) Validate() error {
	if c.Unit != "" && c.Unit != Tokens && c.Unit != Sentences {
		return fmt.Errorf("moderation: unknown window unit %q (want tokens or sentences)", c.Unit)
	}
	switch c.Policy {
	case NoModeration, ModerateThenSend:
	case StreamThenModerate, BufferedWindow, AbortMidStream:
		if c.Window < 1 || c.Window > 4096 {
			return fmt.Errorf("moderation: window of %d tokens; want 1 to 4096", c.Window)
		}
		if c.Overlap < 0 || c.Overlap > 1024 {
			return fmt.Errorf("moderation: overlap of %d tokens; want 0 to 1024", c.Overlap)
		}
	default:
		return fmt.Errorf("moderation: unknown policy %q (want one of %v)", c.Policy, Policies())
	}
	return nil
}
