package pipeline

import (
	"encoding/json"
	"fmt"
)

// AnthropicFormat is the messages stream: named events (message_start,
// content_block_start, ping, one content_block_delta per piece of text,
// content_block_stop, message_delta with the stop reason and output
// tokens, message_stop), each with a JSON data line whose "type" repeats
// the event's name.
var AnthropicFormat = WireFormat{
	Name:  "anthropic",
	Label: "Anthropic-style events",
	start: func(id, model string, promptTokens int) []SSEEvent {
		return []SSEEvent{
			anEvent("message_start", anPayload{Message: &anMessage{ID: id, Type: "message", Role: "assistant",
				Model: model, Content: []any{}, Usage: anUsage{InputTokens: promptTokens}}}),
			anEvent("content_block_start", anPayload{Index: new(int), ContentBlock: &anBlock{Type: "text"}}),
			anEvent("ping", anPayload{}),
		}
	},
	delta: func(_, _, text string) []SSEEvent {
		return []SSEEvent{anEvent("content_block_delta", anPayload{Index: new(int), Delta: &anDelta{Type: "text_delta", Text: &text}})}
	},
	end: func(_, _, finish string, u Usage) []SSEEvent {
		stop := anStopReason(finish)
		return []SSEEvent{
			anEvent("content_block_stop", anPayload{Index: new(int)}),
			anEvent("message_delta", anPayload{Delta: &anDelta{StopReason: &stop}, Usage: &anUsage{OutputTokens: u.CompletionTokens}}),
			anEvent("message_stop", anPayload{}),
		}
	},
	read: readAnthropic,
}

type anPayload struct {
	Type         string     `json:"type"`
	Index        *int       `json:"index,omitempty"`
	Message      *anMessage `json:"message,omitempty"`
	ContentBlock *anBlock   `json:"content_block,omitempty"`
	Delta        *anDelta   `json:"delta,omitempty"`
	Usage        *anUsage   `json:"usage,omitempty"`
	Error        *anError   `json:"error,omitempty"`
}

type anMessage struct {
	ID      string  `json:"id"`
	Type    string  `json:"type"`
	Role    string  `json:"role"`
	Model   string  `json:"model"`
	Content []any   `json:"content"`
	Usage   anUsage `json:"usage"`
}

type anBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type anDelta struct {
	Type       string  `json:"type,omitempty"`
	Text       *string `json:"text,omitempty"`
	StopReason *string `json:"stop_reason,omitempty"`
}

type anUsage struct {
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens"`
}

type anError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// anEvent names the event and repeats the name as the payload's type.
func anEvent(name string, p anPayload) SSEEvent {
	p.Type = name
	return SSEEvent{Event: name, Data: mustJSON(p)}
}

// anStopReason is the OpenAI finish reason in Anthropic's words, and
// back (finishOf).
func anStopReason(finish string) string {
	if finish == "length" {
		return "max_tokens"
	}
	return "end_turn"
}

func finishOf(stop string) string {
	if stop == "max_tokens" {
		return "length"
	}
	return "stop"
}

// readAnthropic reads one messages-stream event by its payload's type (the
// event line may be missing behind a careless proxy; the type never is).
func readAnthropic(ev SSEEvent) (WireChunk, bool, error) {
	var p anPayload
	if err := json.Unmarshal([]byte(ev.Data), &p); err != nil {
		return WireChunk{}, false, errNoJSON
	}
	if ev.Event != "" && p.Type != ev.Event {
		return WireChunk{}, false, fmt.Errorf("event %q carries a %q payload", ev.Event, p.Type)
	}
	switch p.Type {
	case "content_block_delta":
		if p.Delta == nil || p.Delta.Text == nil {
			return WireChunk{}, false, nil // a delta of another kind (tool input, thinking) carries no answer text
		}
		return WireChunk{Text: *p.Delta.Text}, *p.Delta.Text != "", nil
	case "message_start":
		if p.Message == nil {
			return WireChunk{}, false, nil
		}
		return WireChunk{Usage: Usage{PromptTokens: p.Message.Usage.InputTokens}}, true, nil
	case "message_delta":
		var out WireChunk
		if p.Delta != nil && p.Delta.StopReason != nil {
			out.Finish = finishOf(*p.Delta.StopReason)
		}
		if p.Usage != nil {
			out.Usage.CompletionTokens = p.Usage.OutputTokens
		}
		return out, true, nil
	case "message_stop":
		return WireChunk{Done: true}, true, nil
	case "error":
		msg := "the provider reported an error without a message"
		if p.Error != nil && p.Error.Message != "" {
			msg = p.Error.Message
		}
		return WireChunk{Err: msg}, true, nil
	}
	// ping, content_block_start and _stop, and event types added after
	// this was written: the format asks readers to pass over them.
	return WireChunk{}, false, nil
}
