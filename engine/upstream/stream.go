package upstream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"
)

// Chunk is one streamed piece of the answer. Its text has LF as its only
// line end: the client turns CR and CRLF into LF, so no caller passes a
// bare CR on to a page or an SSE stream.
type Chunk struct {
	Text string
	// Reasoning is text a reasoning model wrote before its answer, which
	// the servers stream apart from the answer (reasoning_content in
	// llama.cpp and SGLang, reasoning in vLLM and Ollama).
	Reasoning    string
	FinishReason string
	// Tokens is how many generated tokens this chunk adds. A vLLM or
	// SGLang chunk carries whatever the engine produced since the last
	// one, which can be several tokens (a busy server, speculative
	// decoding), so count tokens with Tokens, not chunks. It
	// comes from the running count the server puts on each chunk when it
	// sends one; otherwise a chunk with text counts as one token.
	Tokens int
	At     time.Time
}

// Usage is the server's token accounting.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// placeholder is Ollama's all-zero usage on every /v1/completions chunk
// when usage is asked for: no count at all, not a count of zero (a real
// count always includes the prompt's tokens).
func (u *Usage) placeholder() bool {
	return u.PromptTokens == 0 && u.CompletionTokens == 0 && u.TotalTokens == 0
}

// Result sums up a finished stream.
type Result struct {
	Text string
	// Reasoning is the thinking a reasoning model streamed apart from
	// its answer (or in a leading <think> block, which the client moves
	// here).
	Reasoning    string
	FinishReason string
	// Usage is the last token count the server sent (its final usage
	// chunk, or the running count on the last chunk); nil when it sent
	// none.
	Usage *Usage
	// Tokens is the sum of the chunks' Tokens.
	Tokens int
	Sent   time.Time
}

// CompletionTokens is the best count of generated tokens: the server's
// own when it sent one, else the chunks' count.
func (r Result) CompletionTokens() int {
	if r.Usage != nil {
		return r.Usage.CompletionTokens
	}
	return r.Tokens
}

// wireChunk is one data event as the four servers write it; fields the
// client has no use for (ids, timings, system_fingerprint, logprobs) are
// left out.
type wireChunk struct {
	Object  string          `json:"object"`
	Choices []wireChoice    `json:"choices"`
	Usage   *Usage          `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type wireChoice struct {
	Text  *string `json:"text"`
	Delta *struct {
		Content          *string `json:"content"`
		ReasoningContent *string `json:"reasoning_content"`
		Reasoning        *string `json:"reasoning"`
	} `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// pieces returns the choice's answer text and reasoning text.
func (c wireChoice) pieces() (text, reasoning string) {
	if c.Text != nil {
		text = *c.Text
	}
	if d := c.Delta; d != nil {
		if d.Content != nil {
			text = *d.Content
		}
		if d.ReasoningContent != nil {
			reasoning = *d.ReasoningContent
		} else if d.Reasoning != nil {
			reasoning = *d.Reasoning
		}
	}
	return text, reasoning
}

// streamReader turns an SSE body into chunks and a result.
type streamReader struct {
	now     func() time.Time
	onChunk func(Chunk)
	res     *Result
	text    strings.Builder
	reason  strings.Builder
	ends    lineEnds
	thought lineEnds
	think   thinkSplitter
}

// read consumes body to its end. It returns nil after [DONE], or after a
// finish_reason when the server closes without [DONE].
func (s *streamReader) read(body io.Reader) error {
	defer func() { s.res.Text, s.res.Reasoning = s.text.String(), s.reason.String() }()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	sc.Split(scanEventLines)
	event := ""
	for sc.Scan() {
		field, value := splitField(sc.Bytes())
		switch {
		case field == "" && value == nil: // a blank line ends an event
			event = ""
			continue
		case field == "event":
			event = string(value)
			continue
		case field == "error" || (field == "data" && event == "error"):
			// Older llama.cpp wrote errors under an "error" field; an
			// "event: error" names the data that follows as one.
			return s.inStreamError(value)
		case field != "data":
			continue // comments (keep-alive pings), id, retry
		}
		value = bytes.TrimSpace(value)
		if len(value) == 0 {
			continue
		}
		if done, err := s.data(value); done || err != nil {
			return err
		}
	}
	s.flushThink()
	if err := sc.Err(); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return ErrIncomplete
		}
		return err
	}
	if s.res.FinishReason == "" {
		return ErrIncomplete
	}
	return nil
}

// data handles one data line; done reports the end of the stream.
func (s *streamReader) data(data []byte) (done bool, err error) {
	if string(data) == "[DONE]" {
		s.flushThink()
		return true, nil
	}
	at := s.now()
	var ch wireChunk
	if err := json.Unmarshal(data, &ch); err != nil {
		return true, &ServerError{Message: "it sent a stream event this client cannot read: " + oneLine(string(data))}
	}
	if (len(ch.Error) > 0 && string(ch.Error) != "null") || ch.Object == "error" {
		return true, s.inStreamError(data)
	}
	running := ch.Usage != nil && !ch.Usage.placeholder()
	if running {
		u := *ch.Usage
		s.res.Usage = &u
	}
	if len(ch.Choices) == 0 {
		return false, nil
	}
	text, reasoning := ch.Choices[0].pieces()
	k := Chunk{Reasoning: s.thought.normalize(reasoning), At: at}
	var tagged string
	k.Text, tagged = s.think.split(s.ends.normalize(text))
	k.Reasoning += tagged
	switch {
	case running:
		// Attribute to this chunk whatever the count grew by since the
		// chunks before it, however those were counted.
		k.Tokens = max(0, ch.Usage.CompletionTokens-s.res.Tokens)
	case text != "" || reasoning != "":
		k.Tokens = 1
	}
	s.res.Tokens += k.Tokens
	if f := ch.Choices[0].FinishReason; f != nil && *f != "" {
		k.FinishReason = *f
		s.res.FinishReason = *f
		rest, thought := s.think.flush()
		k.Text, k.Reasoning = k.Text+rest, k.Reasoning+thought
	}
	s.report(k)
	return false, nil
}

// report passes a chunk on and adds it to the result.
func (s *streamReader) report(k Chunk) {
	s.text.WriteString(k.Text)
	s.reason.WriteString(k.Reasoning)
	if s.onChunk != nil {
		s.onChunk(k)
	}
}

// flushThink reports, as a chunk of no tokens, text the think splitter
// still holds when a stream ends without a finish reason.
func (s *streamReader) flushThink() {
	if text, thought := s.think.flush(); text != "" || thought != "" {
		s.report(Chunk{Text: text, Reasoning: thought, At: s.now()})
	}
}

// inStreamError is the error an error event carries.
func (s *streamReader) inStreamError(data []byte) error {
	return &ServerError{Message: errorMessage(bytes.NewReader(data))}
}

// splitField splits an SSE line into its field name and value (one space
// after the colon dropped, as the SSE specification says). A blank line
// gives ("", nil); a comment line gives a field of "".
func splitField(line []byte) (string, []byte) {
	if len(line) == 0 {
		return "", nil
	}
	name, value, found := bytes.Cut(line, []byte(":"))
	if !found {
		return string(name), []byte{}
	}
	return string(name), bytes.TrimPrefix(value, []byte(" "))
}
