package upstream

import "strings"

// The tags a reasoning model writes round its thinking when the server
// has no reasoning parser switched on (vLLM without --reasoning-parser,
// older Ollama, the DeepSeek-R1 distills): the thinking then arrives in
// the answer text, opened by thinkOpen at its very start.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// thinkSplitter moves a leading <think>…</think> block out of a run of
// streamed answer pieces into reasoning, also when a tag is cut between
// two pieces. It lives in the client, the one place that reads the wire,
// so every caller (the pipeline, bench, the practice grader) gets the
// answer without the thinking, as it does from a server with a parser.
// Only a block at the start counts: a "<think>" later in the answer is
// the model writing about the tag, and stays text.
type thinkSplitter struct {
	state thinkState
	held  string // text that may still turn out to be (part of) a tag
}

type thinkState int

const (
	thinkUndecided  thinkState = iota // nothing but white space so far
	thinkInside                       // inside the block: text is reasoning
	thinkAfterBlock                   // after </think>: white space before the answer is dropped
	thinkAnswer                       // plain answer text from here on
)

// split returns what piece adds to the answer and to the reasoning.
func (t *thinkSplitter) split(piece string) (text, reasoning string) {
	if t.state == thinkAnswer {
		return piece, ""
	}
	buf := t.held + piece
	t.held = ""
	var think strings.Builder
	for buf != "" {
		switch t.state {
		case thinkUndecided:
			lead := strings.TrimLeft(buf, " \t\n")
			switch {
			case strings.HasPrefix(lead, thinkOpen):
				t.state, buf = thinkInside, lead[len(thinkOpen):]
			case strings.HasPrefix(thinkOpen, lead):
				t.held = buf // a tag may be on its way
				return "", think.String()
			default:
				t.state = thinkAnswer
				return buf, think.String()
			}
		case thinkInside:
			if i := strings.Index(buf, thinkClose); i >= 0 {
				think.WriteString(buf[:i])
				t.state, buf = thinkAfterBlock, buf[i+len(thinkClose):]
				continue
			}
			keep := partialSuffix(buf, thinkClose)
			think.WriteString(buf[:len(buf)-keep])
			t.held = buf[len(buf)-keep:]
			return "", think.String()
		case thinkAfterBlock:
			if buf = strings.TrimLeft(buf, " \t\n"); buf != "" {
				t.state = thinkAnswer
				return buf, think.String()
			}
		case thinkAnswer:
			return buf, think.String()
		}
	}
	return "", think.String()
}

// flush ends the stream: text held for a tag that never completed goes
// where it was heading (a block that never closed is all reasoning; a
// start that never became a tag is answer text).
func (t *thinkSplitter) flush() (text, reasoning string) {
	held := t.held
	t.held = ""
	if t.state == thinkInside {
		return "", held
	}
	if t.state == thinkUndecided {
		t.state = thinkAnswer
	}
	return held, ""
}

// partialSuffix is the length of the longest end of s that begins tag
// without being all of it.
func partialSuffix(s, tag string) int {
	for n := min(len(s), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
