package labs_test

import (
	"testing"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// AnswerText gives a thinking token no text and no place in the answer,
// so the answer's pieces follow the thinking in order; a token the engine
// did not take from the answer shows nothing rather than wrong text.
func TestAnswerTextSkipsThinking(t *testing.T) {
	pieces, ids := []string{"Hello", " there", "."}, []int{7, 8, 9}
	think := func(i int) live.Event { return live.Event{Index: i, Thinking: true, Server: "s"} }
	tok := func(i, id int) live.Event { return live.Event{Index: i, Token: id, Server: "s"} }
	for _, tc := range []struct {
		name    string
		events  []live.Event
		want    string
		thought int
		server  string
	}{
		{"bundled engine", []live.Event{{Index: 0, Token: 7}, {Index: 1, Token: 8}, {Index: 2, Token: 9}, {Done: true, Index: 3}}, "Hello there.", 0, ""},
		{"thinking first", []live.Event{think(0), think(1), tok(2, 7), tok(3, 8), {Done: true, Index: 4, Server: "s"}}, "Hello there", 2, "s"},
		{"all thinking", []live.Event{think(0), think(1), think(2)}, "", 3, "s"},
		{"a wrong id", []live.Event{tok(0, 7), tok(1, 99), tok(2, 9)}, "Hello.", 0, "s"},
		{"past the answer", []live.Event{tok(0, 7), tok(1, 8), tok(2, 9), tok(3, 0)}, "Hello there.", 0, "s"},
	} {
		a := labs.NewAnswerText(pieces, ids)
		got := ""
		for _, ev := range tc.events {
			got += a.Piece(ev)
		}
		if got != tc.want || a.Thought != tc.thought || a.Server != tc.server {
			t.Errorf("%s: text %q, %d thinking, server %q; want %q, %d, %q", tc.name, got, a.Thought, a.Server, tc.want, tc.thought, tc.server)
		}
	}
}

// ThinkingNote says nothing without thinking, tells the learner what to
// do when no answer word came, and otherwise where the first word counts
// from.
func TestThinkingNote(t *testing.T) {
	for _, tc := range []struct {
		thought, tokens int
		words           bool
		want            string
	}{
		{0, 50, true, ""},
		{50, 50, false, "All 50 tokens were thinking; no answer word arrived: raise Answer length."},
		{30, 50, false, "30 tokens of the 50 were thinking, and no answer word arrived."},
		{60, 100, true, "The model thought for 60 tokens of its 100 before it answered: the first word counts from its first answer token."},
	} {
		if got := labs.ThinkingNote(tc.thought, tc.tokens, tc.words); got != tc.want {
			t.Errorf("ThinkingNote(%d, %d, %v) = %q, want %q", tc.thought, tc.tokens, tc.words, got, tc.want)
		}
	}
}
