// Package upstream is a small streaming client for any OpenAI-compatible
// server (vLLM, SGLang, Ollama, llama.cpp's llama-server, this app's own
// /v1). It reports every chunk with its arrival time and the tokens it
// carries, so callers can measure TTFT and inter-token gaps the same way
// against each of them.
package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

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
	// RunningCounts asks the server to put its running token count on
	// every chunk (stream_options.continuous_usage_stats), so a chunk that
	// carries several tokens counts as several. vLLM and SGLang honour it;
	// Ollama and llama.cpp ignore it and stream one token per chunk. Off by
	// default, because a server that checks options strictly may refuse a
	// request that carries it.
	RunningCounts bool
}

// Message is one chat turn.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one generation. With Messages set it goes to
// /chat/completions, otherwise Prompt goes to /completions.
type Request struct {
	Model    string
	Prompt   string
	Messages []Message
	// MaxTokens is sent as max_tokens, the one spelling all four servers
	// read (Ollama reads no max_completion_tokens).
	MaxTokens int
	// IgnoreEOS asks for exactly MaxTokens tokens. vLLM, SGLang and
	// llama.cpp honour it; Ollama ignores it, so its answers can end
	// early with finish_reason "stop".
	IgnoreEOS   bool
	Temperature *float64
	Stop        []string
	Seed        *int64
	// ResponseFormat, when set, asks for "json_object" (or another
	// response_format type the server knows); servers without it refuse.
	ResponseFormat string
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
	StreamOptions  streamOptions   `json:"stream_options"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type streamOptions struct {
	IncludeUsage         bool `json:"include_usage"`
	ContinuousUsageStats bool `json:"continuous_usage_stats,omitempty"`
}

// Stream sends req with stream=true and include_usage, calls onChunk for
// every chunk that carries a choice (in arrival order, on the caller's
// goroutine), and returns the assembled result. A server that stops
// answering mid-stream gives ErrIncomplete; one that refuses or reports an
// error gives a *ServerError in its own words.
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
		ResponseFormat: format, Stream: true,
		StreamOptions: streamOptions{IncludeUsage: true, ContinuousUsageStats: c.RunningCounts},
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
	clk := clock.Or(c.Clock)
	res := Result{Sent: clk.Now()}
	resp, err := hc.Do(hr)
	if err != nil {
		return res, fmt.Errorf("post %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return res, &ServerError{Status: resp.StatusCode, Message: errorMessage(resp.Body)}
	}
	s := streamReader{now: clk.Now, onChunk: onChunk, res: &res}
	err = s.read(resp.Body)
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return res, ctx.Err()
	case errors.Is(err, ErrIncomplete):
		return res, err
	}
	var se *ServerError
	if errors.As(err, &se) {
		return res, err
	}
	return res, fmt.Errorf("read stream: %w", err)
}
