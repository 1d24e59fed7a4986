package openaiapi

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/latencylab/latencylab/engine/textmodel"
)

// The official SDK must read both endpoints, streamed and whole, and get
// exactly the text, finish reason and usage the text model and engine made.
func TestOpenAIGoClient(t *testing.T) {
	ts, _ := newLive(t)
	client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1"), option.WithAPIKey("test"), option.WithMaxRetries(0))
	ctx := context.Background()
	system := "Prefill processes the whole prompt in one pass and is compute bound. Decode emits one token per step and is bound by memory bandwidth."
	question := "Why is decode memory bound?"
	msgs := []textmodel.Message{{Role: "system", Content: system}, {Role: "user", Content: question}}
	want := textmodel.Compose(textmodel.ComposeRequest{Messages: msgs, MaxTokens: 60})
	wantPrompt := int64(len(textmodel.PromptTokens(msgs)))
	params := openai.ChatCompletionNewParams{
		Model:       testModel,
		Messages:    []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(question)},
		MaxTokens:   openai.Int(60),
		Temperature: openai.Float(0),
	}

	t.Run("chat stream", func(t *testing.T) {
		p := params
		p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		stream := client.Chat.Completions.NewStreaming(ctx, p)
		var acc openai.ChatCompletionAccumulator
		chunks := 0
		for stream.Next() {
			acc.AddChunk(stream.Current())
			chunks++
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream error: %v", err)
		}
		c := acc.ChatCompletion
		if len(c.Choices) != 1 || c.Choices[0].Message.Content != want.Text || c.Choices[0].FinishReason != want.FinishReason {
			t.Fatalf("got %+v\nwant text %q finish %s", c.Choices, want.Text, want.FinishReason)
		}
		if c.Usage.CompletionTokens != int64(len(want.Tokens)) || c.Usage.PromptTokens != wantPrompt {
			t.Fatalf("usage %+v, want %d prompt %d completion", c.Usage, wantPrompt, len(want.Tokens))
		}
		if chunks < 3 {
			t.Fatalf("only %d chunks: not streamed token by token", chunks)
		}
	})

	t.Run("chat whole", func(t *testing.T) {
		c, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		if c.Choices[0].Message.Content != want.Text || c.Choices[0].FinishReason != want.FinishReason ||
			c.Usage.CompletionTokens != int64(len(want.Tokens)) || c.Usage.PromptTokens != wantPrompt {
			t.Fatalf("got %+v usage %+v", c.Choices[0], c.Usage)
		}
	})

	prompt := "Explain continuous batching."
	cp := openai.CompletionNewParams{
		Model:     openai.CompletionNewParamsModel(testModel),
		Prompt:    openai.CompletionNewParamsPromptUnion{OfString: openai.String(prompt)},
		MaxTokens: openai.Int(25),
	}
	t.Run("completion stream with ignore_eos", func(t *testing.T) {
		p := cp
		p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		stream := client.Completions.NewStreaming(ctx, p, option.WithJSONSet("ignore_eos", true))
		var text, finish string
		var completion int64
		for stream.Next() {
			c := stream.Current()
			for _, ch := range c.Choices {
				text += ch.Text
				if ch.FinishReason != "" {
					finish = string(ch.FinishReason)
				}
			}
			if c.Usage.CompletionTokens > 0 {
				completion = c.Usage.CompletionTokens
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatal(err)
		}
		if completion != 25 || finish != "length" || text == "" {
			t.Fatalf("completion %d finish %q text %q; want 25 tokens, length", completion, finish, text)
		}
	})

	t.Run("completion whole", func(t *testing.T) {
		c, err := client.Completions.New(ctx, cp)
		if err != nil {
			t.Fatal(err)
		}
		if c.Choices[0].Text == "" || c.Usage.PromptTokens != int64(textmodel.Count(prompt)) || c.Usage.CompletionTokens > 25 {
			t.Fatalf("got %+v usage %+v", c.Choices, c.Usage)
		}
	})

	t.Run("errors reach the SDK", func(t *testing.T) {
		p := params
		p.Model = "no-such-model"
		_, err := client.Chat.Completions.New(ctx, p)
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Code != "model_not_found" {
			t.Fatalf("err %v, want a 404 model_not_found *openai.Error", err)
		}
		p = params
		p.MaxTokens = openai.Int(200_000)
		_, err = client.Chat.Completions.New(ctx, p)
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Code != "context_length_exceeded" {
			t.Fatalf("err %v, want a 400 context_length_exceeded", err)
		}
	})
}

// With an API key configured, the SDK's key is what lets it in: the right
// one streams as before, a wrong one is a 401 invalid_api_key the SDK
// reads as an *openai.Error.
func TestOpenAIGoClientWithAPIKey(t *testing.T) {
	ts := httptest.NewServer(mustServer(t, Config{Engine: fakeClockEngine(t), ModelName: testModel, APIKey: "sk-workshop"}))
	defer ts.Close()
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{
		Model:     testModel,
		Messages:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is prefill?")},
		MaxTokens: openai.Int(10),
	}
	for _, c := range []struct {
		name, key string
		status    int
	}{
		{"right key", "sk-workshop", 0},
		{"wrong key", "sk-guess", 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1"), option.WithAPIKey(c.key), option.WithMaxRetries(0))
			stream := client.Chat.Completions.NewStreaming(ctx, params)
			text := ""
			for stream.Next() {
				for _, ch := range stream.Current().Choices {
					text += ch.Delta.Content
				}
			}
			err := stream.Err()
			if c.status == 0 {
				if err != nil || text == "" {
					t.Fatalf("err %v, text %q", err, text)
				}
				models, err := client.Models.List(ctx)
				if err != nil || len(models.Data) != 1 || models.Data[0].ID != testModel {
					t.Fatalf("models %+v, err %v", models, err)
				}
				return
			}
			var apiErr *openai.Error
			if !errors.As(err, &apiErr) || apiErr.StatusCode != c.status || apiErr.Code != "invalid_api_key" {
				t.Fatalf("err %v, want a %d invalid_api_key *openai.Error", err, c.status)
			}
		})
	}
}
