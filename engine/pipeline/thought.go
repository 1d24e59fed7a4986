package pipeline

import (
	"strings"
	"time"
)

// thought is a reasoning model's thinking during one answer: what the
// reader was shown of it, its tokens, and when it began and ended on the
// modelled timeline.
type thought struct {
	started bool
	hidden  bool // withheld: an output check is on
	tokens  int
	// first is its first token; end is the first answer text, or its
	// last token while no answer has come.
	first, end time.Duration
	shown      strings.Builder
	// Buffered mode holds the thinking with the answer.
	pending  strings.Builder
	pendingN int
	// Tokens of chunks without text that came before any text, and when
	// the first of them came.
	quiet   int
	quietAt time.Duration
}

// took is how long the model thought before its answer began.
func (t *thought) took() time.Duration {
	if !t.started {
		return 0
	}
	return t.end - t.first
}
