package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/engine/upstream"
)

// UpstreamProvider answers with any OpenAI-compatible server (vLLM, SGLang,
// Ollama, this app's own /v1) through engine/upstream.
type UpstreamProvider struct {
	Client *upstream.Client
}

// NewUpstreamProvider wraps a client.
func NewUpstreamProvider(c *upstream.Client) *UpstreamProvider { return &UpstreamProvider{Client: c} }

// Stream posts a streaming chat completion. Each chunk counts the tokens
// it carries (upstream.Chunk.Tokens: the server's running count, else one
// per chunk with text); the server's final usage replaces that sum when it
// sends one. A reasoning model's thinking arrives as Reasoning, apart from
// the answer (the client has already moved a leading <think> block
// there). Cancelling ctx closes the connection, which vLLM takes as an
// abort.
func (p *UpstreamProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	if p.Client == nil {
		return nil, errors.New("upstream provider: no client")
	}
	msgs := make([]upstream.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = upstream.Message{Role: m.Role, Content: m.Content}
	}
	ureq := upstream.Request{Model: req.Model, Messages: msgs, MaxTokens: req.MaxTokens}
	if req.ExactTokens > 0 {
		ureq.MaxTokens, ureq.IgnoreEOS = req.ExactTokens, true
	}
	temp, seed := req.Temperature, req.Seed
	ureq.Temperature, ureq.Seed = &temp, &seed

	ctx, cancel := context.WithCancel(ctx)
	out := make(chan streamItem, 16)
	go func() {
		defer close(out)
		send := func(it streamItem) bool {
			select {
			case out <- it:
				return true
			case <-ctx.Done():
				return false
			}
		}
		chunks := 0
		res, err := p.Client.Stream(ctx, ureq, func(c upstream.Chunk) {
			chunks += c.Tokens
			if c.Tokens > 0 || c.FinishReason == "" {
				send(streamItem{ev: StreamEvent{Text: c.Text, Reasoning: c.Reasoning, Tokens: c.Tokens, At: c.At}})
			}
		})
		if err != nil {
			if ctx.Err() == nil {
				send(streamItem{err: fmt.Errorf("upstream %s: %w", req.Model, err)})
			}
			return
		}
		u := Usage{PromptTokens: len(textmodel.PromptTokens(req.Messages)), CompletionTokens: chunks}
		if res.Usage != nil {
			u = Usage{PromptTokens: res.Usage.PromptTokens, CompletionTokens: res.Usage.CompletionTokens}
		}
		send(streamItem{ev: StreamEvent{Done: true, FinishReason: res.FinishReason, Usage: u}})
	}()
	return &chanStream{ctx: ctx, cancel: cancel, ch: out}, nil
}
