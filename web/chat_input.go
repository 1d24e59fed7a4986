package web

import (
	"strings"
	"unicode/utf8"
)

// cleanChatInput is the first thing done to a chat message: CRLF and bare
// CR become LF, and the other C0 control characters (NUL included) except
// tab are dropped. A CR has no place in a question — textareas send LF —
// and kept, it would reach the prompt, the saved conversation and every
// stream that replays it; the SSE adapter guards those too, but a message
// is stored once and read many times, so it is cleaned where it enters.
// Invalid UTF-8 is returned as it came, for the caller's check to refuse.
func cleanChatInput(s string) string {
	if !utf8.ValidString(s) {
		return s // strings.Map would turn the bad bytes into U+FFFD and hide them from the check
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}
