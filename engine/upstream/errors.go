package upstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrIncomplete is a stream that ended before the server said the answer
// was finished: no finish_reason and no [DONE]. Ollama does this when its
// runner fails mid-answer (it writes an empty chunk and closes), and any
// server does it when it crashes or a proxy cuts the connection.
var ErrIncomplete = errors.New("the server closed the stream before the answer was complete")

// ServerError is a non-2xx answer or an error event inside a stream, in
// the server's own words.
type ServerError struct {
	// Status is the HTTP status; 0 for an error event inside a 200 stream.
	Status  int
	Message string
}

// Error implements error as one readable sentence.
func (e *ServerError) Error() string {
	if e.Status == 0 {
		return "the server broke off the answer: " + e.Message
	}
	return fmt.Sprintf("server answered %d: %s", e.Status, e.Message)
}

// errorBody is every error shape the four servers write: OpenAI's nested
// {"error": {"message": ...}} (vLLM now, llama.cpp, Ollama's /v1), a flat
// {"object": "error", "message": ...} (SGLang, vLLM before 0.10) and
// {"error": "text"} (Ollama's native routes).
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
}

// message is the human part of the body, or "" when it has none.
func (b errorBody) message() string {
	var nested struct {
		Message string `json:"message"`
	}
	var text string
	switch {
	case json.Unmarshal(b.Error, &nested) == nil && nested.Message != "":
		return nested.Message
	case json.Unmarshal(b.Error, &text) == nil && text != "":
		return text
	}
	return b.Message
}

// errorMessage extracts the server's message from an error body, falling
// back to the body's text.
func errorMessage(r io.Reader) string {
	raw, _ := io.ReadAll(io.LimitReader(r, 64*1024))
	var b errorBody
	if json.Unmarshal(raw, &b) == nil {
		if m := b.message(); m != "" {
			return oneLine(m)
		}
	}
	if s := oneLine(string(raw)); s != "" {
		return s
	}
	return "no reason given"
}

// oneLine squeezes a server's message (which may carry newlines or a
// Python traceback) into one line of at most 300 bytes.
func oneLine(s string) string {
	return truncate(strings.Join(strings.Fields(s), " "))
}

func truncate(s string) string {
	if len(s) <= 300 {
		return s
	}
	cut := 300
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// ShortAnswer is an answer that ended before the tokens asked although
// the request asked for ignore_eos: the server does not honour it (Ollama
// does not), so the answer stopped at the model's end-of-answer token.
// Callers that compare the answer with one of the length asked report it
// instead of setting unlike figures side by side.
type ShortAnswer struct {
	Wrote, Asked int
}

// Error implements error as one readable sentence.
func (e *ShortAnswer) Error() string {
	return fmt.Sprintf("the server ended its answer after %d of the %d tokens asked, because it does not honour ignore_eos (Ollama does not)", e.Wrote, e.Asked)
}
