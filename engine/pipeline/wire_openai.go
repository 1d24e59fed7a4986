package pipeline

import (
	"encoding/json"
	"errors"
)

// OpenAIFormat is the chat-completions stream: every event is a data line
// holding a "chat.completion.chunk" whose choices[0].delta carries the
// text, a last chunk with the finish reason, a usage chunk with no
// choices, and the literal data: [DONE]. vLLM, SGLang and Ollama's /v1
// write it too.
var OpenAIFormat = WireFormat{
	Name:  "openai",
	Label: "OpenAI-style chunks",
	start: func(id, model string, _ int) []SSEEvent {
		role := "assistant"
		return []SSEEvent{{Data: mustJSON(oaChunk{ID: id, Object: oaObject, Model: model,
			Choices: []oaChoice{{Delta: oaDelta{Role: role}}}})}}
	},
	delta: func(id, model, text string) []SSEEvent {
		return []SSEEvent{{Data: mustJSON(oaChunk{ID: id, Object: oaObject, Model: model,
			Choices: []oaChoice{{Delta: oaDelta{Content: &text}}}})}}
	},
	end: func(id, model, finish string, u Usage) []SSEEvent {
		return []SSEEvent{
			{Data: mustJSON(oaChunk{ID: id, Object: oaObject, Model: model, Choices: []oaChoice{{FinishReason: &finish}}})},
			{Data: mustJSON(oaChunk{ID: id, Object: oaObject, Model: model, Choices: []oaChoice{},
				Usage: &oaUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
					TotalTokens: u.PromptTokens + u.CompletionTokens}})},
			{Data: oaDone},
		}
	},
	read: readOpenAI,
}

const (
	oaObject = "chat.completion.chunk"
	oaDone   = "[DONE]"
)

type oaChunk struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Model   string     `json:"model"`
	Choices []oaChoice `json:"choices"`
	Usage   *oaUsage   `json:"usage,omitempty"`
	Error   *oaError   `json:"error,omitempty"`
}

type oaChoice struct {
	Index        int     `json:"index"`
	Delta        oaDelta `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type oaDelta struct {
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content,omitempty"`
}

type oaUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type oaError struct {
	Message string `json:"message"`
}

// readOpenAI reads one chat-completions event. The finish reason and the
// usage come in separate chunks, so Done is only the [DONE] marker; the
// finish and usage seen on the way are returned on their own chunks for
// the gateway to keep.
func readOpenAI(ev SSEEvent) (WireChunk, bool, error) {
	if ev.Data == oaDone {
		return WireChunk{Done: true}, true, nil
	}
	var c oaChunk
	if err := json.Unmarshal([]byte(ev.Data), &c); err != nil {
		return WireChunk{}, false, errNoJSON
	}
	if c.Error != nil {
		msg := c.Error.Message
		if msg == "" {
			msg = "the provider reported an error without a message"
		}
		return WireChunk{Err: msg}, true, nil
	}
	var out WireChunk
	if c.Usage != nil {
		out.Usage = Usage{PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens}
	}
	if len(c.Choices) > 0 {
		ch := c.Choices[0]
		if ch.Delta.Content != nil {
			out.Text = *ch.Delta.Content
		}
		if ch.FinishReason != nil {
			out.Finish = *ch.FinishReason
		}
	} else if c.Usage == nil {
		return WireChunk{}, false, errors.New("a chunk with neither choices nor usage")
	}
	return out, out.Text != "" || out.Finish != "" || c.Usage != nil, nil
}
