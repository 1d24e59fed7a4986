// Package wire decodes and validates OpenAI-style request bodies into the
// settings the engine honours. It depends on the standard library only, so
// its fuzz test builds and runs quickly.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// Limits are the served model's bounds a request is checked against, so
// an error states the real range rather than a decoder's.
type Limits struct {
	// VocabSize bounds token ids in a prompt (ids are 0..VocabSize-1);
	// 0 leaves them unchecked.
	VocabSize int
	// MaxContext bounds max_tokens; 0 means 16,777,216.
	MaxContext int
}

func (l Limits) maxTokens() int {
	if l.MaxContext > 0 {
		return l.MaxContext
	}
	return maxTokensLimit
}

// contextNote says where the max_tokens bound comes from.
func (l Limits) contextNote() string {
	if l.MaxContext > 0 {
		return " (the model's context length, prompt included)"
	}
	return ""
}

// DecodeChatRequest reads and validates a chat completion request. Every
// failure is an *APIError with status 400 or 413.
func DecodeChatRequest(body io.Reader, lim Limits) (*ChatRequest, error) {
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
		param := fmt.Sprintf("messages[%d].content", i)
		if isNull(m.Content) && m.Role != "assistant" {
			// Only an assistant turn that called tools may have no content.
			return nil, BadRequest(param, "%s is missing or null: a %s message needs text content", param, m.Role)
		}
		text, err := contentText(m.Content)
		if err != nil {
			return nil, BadRequest(param, "%s: %v", param, err)
		}
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: text})
	}
	var err error
	if req.Params, req.Stream, req.WithUsage, err = raw.rawCommon.params(true, lim); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeCompletionRequest reads and validates a legacy completion request.
func DecodeCompletionRequest(body io.Reader, lim Limits) (*CompletionRequest, error) {
	var raw rawCompletion
	if err := decodeJSON(body, &raw); err != nil {
		return nil, err
	}
	req := &CompletionRequest{Model: raw.Model}
	if err := req.setPrompt(raw.Prompt, lim); err != nil {
		return nil, err
	}
	var err error
	if req.Params, req.Stream, req.WithUsage, err = raw.rawCommon.params(false, lim); err != nil {
		return nil, err
	}
	return req, nil
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// setPrompt accepts a string, a one-element array of strings, or token ids
// (flat or a one-element array of arrays); several prompts would need n > 1
// choices, which the engine does not serve.
func (r *CompletionRequest) setPrompt(raw json.RawMessage, lim Limits) error {
	const want = "prompt must be a string, an array of one string, or an array of token ids"
	if isNull(raw) {
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
	for i, id := range ids {
		if id < 0 {
			return BadRequest("prompt", "token id %d (prompt[%d]) is negative", id, i)
		}
		if lim.VocabSize > 0 && id >= lim.VocabSize {
			return BadRequest("prompt", "token id %d (prompt[%d]) is out of vocabulary: want 0..%d", id, i, lim.VocabSize-1)
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
	if isNull(raw) {
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
