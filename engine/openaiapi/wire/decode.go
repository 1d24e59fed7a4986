// Package wire decodes and validates OpenAI-style request bodies into the
// settings the engine honours. It depends on the standard library only, so
// its fuzz test builds and runs quickly.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
)

// Message is one chat message. Content may arrive as a string or as an
// array of text parts; it is flattened to text.
type Message struct {
	Role    string
	Content string
}

// ChatRequest is the subset of /v1/chat/completions the engine honours.
type ChatRequest struct {
	Model     string
	Messages  []Message
	Params    Params
	Stream    bool
	WithUsage bool // stream_options.include_usage
}

// CompletionRequest is the subset of /v1/completions the engine honours.
type CompletionRequest struct {
	Model string
	// Prompt is text, or token ids when the client sent ids.
	Prompt    string
	PromptIDs []int
	Params    Params
	Stream    bool
	WithUsage bool
}

// Params are the sampling settings shared by both endpoints.
type Params struct {
	MaxTokens   int // 0 means up to the context length
	Stop        []string
	Seed        *int64
	Temperature float64
	IgnoreEOS   bool // vLLM extension: generate exactly MaxTokens
	MinTokens   int  // vLLM extension
}

// Limits on what one request may carry; far above real use, they stop
// absurd values before they reach the engine.
const (
	maxStops       = 16
	maxStopLen     = 1024
	maxMessages    = 4096
	maxPromptIDs   = 1 << 20
	maxTokensLimit = 1 << 24
)

type rawStreamOptions struct {
	IncludeUsage *bool `json:"include_usage"`
}

type rawCommon struct {
	Model               string            `json:"model"`
	Stream              *bool             `json:"stream"`
	StreamOptions       *rawStreamOptions `json:"stream_options"`
	MaxTokens           *int64            `json:"max_tokens"`
	MaxCompletionTokens *int64            `json:"max_completion_tokens"`
	Stop                json.RawMessage   `json:"stop"`
	Seed                *float64          `json:"seed"`
	Temperature         *float64          `json:"temperature"`
	N                   *int64            `json:"n"`
	IgnoreEOS           *bool             `json:"ignore_eos"`
	MinTokens           *int64            `json:"min_tokens"`
}

type rawChat struct {
	rawCommon
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type rawCompletion struct {
	rawCommon
	Prompt json.RawMessage `json:"prompt"`
}

// decodeJSON reads one JSON object, mapping oversize bodies to 413 and
// malformed JSON to 400 with the decoder's reason.
func decodeJSON(body io.Reader, v any) error {
	raw, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &APIError{Status: http.StatusRequestEntityTooLarge, Type: "invalid_request_error", Code: "request_too_large",
				Message: fmt.Sprintf("request body is larger than %d bytes", mbe.Limit)}
		}
		return BadRequest("", "reading request body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return BadRequest("", "request body is not valid JSON for this endpoint: %v", err)
	}
	if dec.More() {
		return BadRequest("", "request body has data after the JSON object")
	}
	return nil
}

// DecodeChatRequest reads and validates a chat completion request. Every
// failure is an *APIError with status 400 or 413.
func DecodeChatRequest(body io.Reader) (*ChatRequest, error) {
	var raw rawChat
	if err := decodeJSON(body, &raw); err != nil {
		return nil, err
	}
	if len(raw.Messages) == 0 {
		return nil, BadRequest("messages", "messages must be a non-empty array")
	}
	if len(raw.Messages) > maxMessages {
		return nil, BadRequest("messages", "%d messages is too many: want at most %d", len(raw.Messages), maxMessages)
	}
	req := &ChatRequest{Model: raw.Model}
	for i, m := range raw.Messages {
		switch m.Role {
		case "system", "developer", "user", "assistant", "tool":
		default:
			return nil, BadRequest(fmt.Sprintf("messages[%d].role", i), "unknown role %q: want system, developer, user, assistant or tool", m.Role)
		}
		text, err := contentText(m.Content)
		if err != nil {
			return nil, BadRequest(fmt.Sprintf("messages[%d].content", i), "%v", err)
		}
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: text})
	}
	var err error
	if req.Params, req.Stream, req.WithUsage, err = raw.rawCommon.params(true); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeCompletionRequest reads and validates a legacy completion request.
func DecodeCompletionRequest(body io.Reader) (*CompletionRequest, error) {
	var raw rawCompletion
	if err := decodeJSON(body, &raw); err != nil {
		return nil, err
	}
	req := &CompletionRequest{Model: raw.Model}
	if err := req.setPrompt(raw.Prompt); err != nil {
		return nil, err
	}
	var err error
	if req.Params, req.Stream, req.WithUsage, err = raw.rawCommon.params(false); err != nil {
		return nil, err
	}
	return req, nil
}

// setPrompt accepts a string, a one-element array of strings, or token ids
// (flat or a one-element array of arrays); several prompts would need n > 1
// choices, which the engine does not serve.
func (r *CompletionRequest) setPrompt(raw json.RawMessage) error {
	const want = "prompt must be a string, an array of one string, or an array of token ids"
	if len(raw) == 0 || string(raw) == "null" {
		return BadRequest("prompt", "prompt is required")
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		r.Prompt = s
		return nonEmpty(s)
	}
	var ss []string
	if json.Unmarshal(raw, &ss) == nil {
		if len(ss) != 1 {
			return BadRequest("prompt", "%d prompts given: this server takes one prompt per request", len(ss))
		}
		r.Prompt = ss[0]
		return nonEmpty(ss[0])
	}
	var ids []int
	if json.Unmarshal(raw, &ids) != nil {
		var nested [][]int
		if json.Unmarshal(raw, &nested) != nil {
			return BadRequest("prompt", want)
		}
		if len(nested) != 1 {
			return BadRequest("prompt", "%d prompts given: this server takes one prompt per request", len(nested))
		}
		ids = nested[0]
	}
	if len(ids) == 0 || len(ids) > maxPromptIDs {
		return BadRequest("prompt", "prompt has %d token ids: want 1..%d", len(ids), maxPromptIDs)
	}
	for _, id := range ids {
		if id < 0 {
			return BadRequest("prompt", "token id %d is negative", id)
		}
	}
	r.PromptIDs = ids
	return nil
}

func nonEmpty(s string) error {
	if s == "" {
		return BadRequest("prompt", "prompt is empty")
	}
	return nil
}

// contentText flattens a message content: a string, null, or an array of
// {"type":"text","text":...} parts.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("content must be a string or an array of text parts")
	}
	var b strings.Builder
	for i, p := range parts {
		if p.Type != "text" || p.Text == nil {
			return "", fmt.Errorf("content part %d has type %q: only text parts are supported", i, p.Type)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(*p.Text)
	}
	return b.String(), nil
}

// params validates the settings shared by both endpoints. For chat,
// max_completion_tokens wins over the deprecated max_tokens, as in OpenAI.
func (c *rawCommon) params(chat bool) (Params, bool, bool, error) {
	var p Params
	stream := c.Stream != nil && *c.Stream
	withUsage := false
	if c.StreamOptions != nil {
		if !stream {
			return p, false, false, BadRequest("stream_options", "stream_options can only be set when stream is true")
		}
		withUsage = c.StreamOptions.IncludeUsage != nil && *c.StreamOptions.IncludeUsage
	}
	if c.N != nil && *c.N != 1 {
		return p, false, false, BadRequest("n", "n is %d: this server generates exactly one choice (n=1)", *c.N)
	}
	mt := c.MaxTokens
	param := "max_tokens"
	if chat && c.MaxCompletionTokens != nil {
		mt, param = c.MaxCompletionTokens, "max_completion_tokens"
	}
	if mt != nil {
		if *mt < 1 || *mt > maxTokensLimit {
			return p, false, false, BadRequest(param, "%s is %d: want at least 1", param, *mt)
		}
		p.MaxTokens = int(*mt)
	} else if !chat {
		p.MaxTokens = 16 // the completions API's documented default
	}
	if c.Temperature != nil {
		t := *c.Temperature
		if math.IsNaN(t) || t < 0 || t > 2 {
			return p, false, false, BadRequest("temperature", "temperature is %g: want 0..2", t)
		}
		p.Temperature = t
	} else {
		p.Temperature = 1
	}
	if c.Seed != nil {
		s := *c.Seed
		if s != math.Trunc(s) || s < math.MinInt64 || s >= math.MaxInt64 {
			return p, false, false, BadRequest("seed", "seed must be an integer")
		}
		v := int64(s)
		p.Seed = &v
	}
	p.IgnoreEOS = c.IgnoreEOS != nil && *c.IgnoreEOS
	if c.MinTokens != nil {
		if *c.MinTokens < 0 || (p.MaxTokens > 0 && *c.MinTokens > int64(p.MaxTokens)) {
			return p, false, false, BadRequest("min_tokens", "min_tokens is %d: want 0..max_tokens", *c.MinTokens)
		}
		p.MinTokens = int(*c.MinTokens)
	}
	stops, err := decodeStop(c.Stop)
	if err != nil {
		return p, false, false, err
	}
	p.Stop = stops
	return p, stream, withUsage, nil
}

// decodeStop accepts null, a string or an array of strings.
func decodeStop(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	var many []string
	if json.Unmarshal(raw, &one) == nil {
		many = []string{one}
	} else if json.Unmarshal(raw, &many) != nil {
		return nil, BadRequest("stop", "stop must be a string or an array of strings")
	}
	if len(many) > maxStops {
		return nil, BadRequest("stop", "%d stop sequences: want at most %d", len(many), maxStops)
	}
	var out []string
	for _, s := range many {
		if len(s) > maxStopLen {
			return nil, BadRequest("stop", "a stop sequence is %d bytes: want at most %d", len(s), maxStopLen)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}
