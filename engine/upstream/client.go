// Package upstream is a small streaming client for any OpenAI-compatible
// server (vLLM, SGLang, Ollama, this app's own /v1). It reports every chunk
// with its arrival time so callers can measure TTFT and inter-token gaps.
package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// Client talks to one server.
type Client struct {
	// BaseURL is the API root including /v1, e.g. http://127.0.0.1:8000/v1.
	BaseURL string
	APIKey  string
	// HTTP defaults to a client without a timeout: streams can be long and
	// callers bound them with the context.
	HTTP *http.Client
	// Clock times the stream; nil means the wall clock. Tests inject one.
	Clock clock.Clock
}

// Message is one chat turn.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one generation. With Messages set it goes to
// /chat/completions, otherwise Prompt goes to /completions.
type Request struct {
	Model       string
	Prompt      string
	Messages    []Message
	MaxTokens   int
	IgnoreEOS   bool // vLLM extension, for exact output lengths
	Temperature *float64
	Stop        []string
	Seed        *int64
	// ResponseFormat, when set, asks for "json_object" (or another
	// response_format type the server knows); servers without it refuse.
	ResponseFormat string
}

// Chunk is one streamed piece of the answer. Its text has LF as its only
// line end: the client turns CR and CRLF into LF, so no caller passes a
// bare CR on to a page or an SSE stream.
type Chunk struct {
	Text         string
	FinishReason string
	At           time.Time
}

// Usage is the server's token accounting.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Result sums up a finished stream.
type Result struct {
	Text         string
	FinishReason string
	Usage        *Usage // nil when the server sent none
	Sent         time.Time
}

// ServerError is a non-2xx answer or an error event inside a stream.
type ServerError struct {
	Status  int
	Message string
}

// Error implements error.
func (e *ServerError) Error() string {
	if e.Status == 0 {
		return "server error in stream: " + e.Message
	}
	return fmt.Sprintf("server answered %d: %s", e.Status, e.Message)
}

type wireRequest struct {
	Model          string          `json:"model,omitempty"`
	Prompt         string          `json:"prompt,omitempty"`
	Messages       []Message       `json:"messages,omitempty"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	IgnoreEOS      bool            `json:"ignore_eos,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Stop           []string        `json:"stop,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	Stream         bool            `json:"stream"`
	StreamOptions  map[string]any  `json:"stream_options,omitempty"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type wireChunk struct {
	Choices []struct {
		Text  *string `json:"text"`
		Delta *struct {
			Content *string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

func (c *Client) now() time.Time { return clock.Or(c.Clock).Now() }

// Stream sends req with stream=true and include_usage, calls onChunk for
// every chunk that carries a choice (in arrival order, on the caller's
// goroutine), and returns the assembled result.
func (c *Client) Stream(ctx context.Context, req Request, onChunk func(Chunk)) (Result, error) {
	path := "/completions"
	if req.Messages != nil {
		path = "/chat/completions"
	}
	var format *responseFormat
	if req.ResponseFormat != "" {
		format = &responseFormat{Type: req.ResponseFormat}
	}
	body, err := json.Marshal(wireRequest{
		Model: req.Model, Prompt: req.Prompt, Messages: req.Messages, MaxTokens: req.MaxTokens,
		IgnoreEOS: req.IgnoreEOS, Temperature: req.Temperature, Stop: req.Stop, Seed: req.Seed,
		ResponseFormat: format, Stream: true, StreamOptions: map[string]any{"include_usage": true},
	})
	if err != nil {
		return Result{}, fmt.Errorf("encode request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return Result{}, fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream")
	if c.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res := Result{Sent: c.now()}
	resp, err := hc.Do(hr)
	if err != nil {
		return res, fmt.Errorf("post %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return res, &ServerError{Status: resp.StatusCode, Message: errorMessage(resp.Body)}
	}
	var text strings.Builder
	var ends lineEnds
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	sc.Split(scanEventLines)
	for sc.Scan() {
		line := sc.Bytes()
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // comments, event names, blank separators
		}
		data = bytes.TrimSpace(data)
		if string(data) == "[DONE]" {
			res.Text = text.String()
			return res, nil
		}
		at := c.now()
		var ch wireChunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return res, fmt.Errorf("decode stream chunk %q: %w", truncate(string(data)), err)
		}
		if len(ch.Error) > 0 && string(ch.Error) != "null" {
			return res, &ServerError{Message: errorMessage(bytes.NewReader(data))}
		}
		if ch.Usage != nil {
			res.Usage = ch.Usage
		}
		if len(ch.Choices) == 0 {
			continue
		}
		k := Chunk{At: at}
		choice := ch.Choices[0]
		switch {
		case choice.Text != nil:
			k.Text = *choice.Text
		case choice.Delta != nil && choice.Delta.Content != nil:
			k.Text = *choice.Delta.Content
		}
		if choice.FinishReason != nil {
			k.FinishReason = *choice.FinishReason
			res.FinishReason = k.FinishReason
		}
		k.Text = ends.normalize(k.Text)
		text.WriteString(k.Text)
		if onChunk != nil {
			onChunk(k)
		}
	}
	if err := sc.Err(); err != nil {
		return res, fmt.Errorf("read stream: %w", err)
	}
	res.Text = text.String()
	return res, errors.New("stream ended without [DONE]")
}

// errorMessage extracts an OpenAI {"error": {"message": ...}} (or vLLM's
// older flat {"message": ...}) from a body, falling back to its text.
func errorMessage(r io.Reader) string {
	raw, _ := io.ReadAll(io.LimitReader(r, 64*1024))
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil {
		if e.Error.Message != "" {
			return e.Error.Message
		}
		if e.Message != "" {
			return e.Message
		}
	}
	return truncate(strings.TrimSpace(string(raw)))
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
