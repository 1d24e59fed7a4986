package labs

import (
	"fmt"

	"github.com/latencylab/latencylab/engine/live"
)

// AnswerText follows one request's token events against the answer the
// lab composed for it. It is the one place a lab turns an event into the
// text a reader sees, so a reasoning model's thinking on a server (events
// marked live.Event.Thinking) counts as tokens written but never as
// words: the first word is the first answer token's, as the chat counts
// it. It also keeps where the events were timed. Events must be given in
// order, each once.
type AnswerText struct {
	pieces []string
	ids    []int
	// Thought counts the thinking tokens seen so far.
	Thought int
	// Server names the server that timed the events (live.Event.Server);
	// "" on the bundled engine.
	Server string
}

// NewAnswerText follows an answer composed as pieces, the text of each of
// its token ids; ids may be nil when the lab keeps no ids.
func NewAnswerText(pieces []string, ids []int) *AnswerText {
	return &AnswerText{pieces: pieces, ids: ids}
}

// Piece records ev and returns its text in the composed answer: "" for a
// thinking token, for the final event, and for a token the engine did not
// take from the answer (an engine bug shows no text rather than wrong text).
func (a *AnswerText) Piece(ev live.Event) string {
	if ev.Server != "" {
		a.Server = ev.Server
	}
	switch {
	case ev.Done:
		return ""
	case ev.Thinking:
		a.Thought++
		return ""
	}
	k := ev.Index - a.Thought // thinking tokens hold no place in the answer
	if k < 0 || k >= len(a.pieces) || (a.ids != nil && (k >= len(a.ids) || a.ids[k] != ev.Token)) {
		return ""
	}
	return a.pieces[k]
}

// ThinkingNote tells the learner, for a run's status, how much of an
// answer of tokens was a reasoning model's thinking and what that did to
// the first word; words says an answer word arrived. It is "" when no
// token was thinking.
func ThinkingNote(thought, tokens int, words bool) string {
	switch {
	case thought == 0:
		return ""
	case !words && thought >= tokens:
		return fmt.Sprintf("All %s were thinking; no answer word arrived: raise Answer length.", Count(tokens, "token"))
	case !words:
		return fmt.Sprintf("%s of the %s were thinking, and no answer word arrived.", Count(thought, "token"), Thousands(tokens))
	}
	return fmt.Sprintf("The model thought for %s of its %s before it answered: the first word counts from its first answer token.",
		Count(thought, "token"), Thousands(tokens))
}

// ComposedNote is the line a text panel carries on a server run (server
// as AnswerText.Server names it): the words are the lab's own, the times
// the server's. It is "" on the bundled engine.
func ComposedNote(server string) string {
	if server == "" {
		return ""
	}
	return "The words are the lab's own stand-in answer, not the server's; when each one appears is timed by " + server + "."
}
