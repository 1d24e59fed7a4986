package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
)

// WireChunk is a provider's stream event read into the one shape the
// gateway passes on, whatever the provider: text, or the end of the
// answer with its finish reason and usage, or an error the provider sent
// in the stream.
type WireChunk struct {
	Text   string
	Done   bool
	Finish string // on Done: why the answer ended ("stop", "length")
	Usage  Usage  // on Done, as far as the provider reported it
	Err    string // the provider's error message, sent after the 200
}

// WireFormat is how one provider frames a streamed answer as server-sent
// events: what it writes at the start, per piece of text and at the end,
// and how its events read back into WireChunks. OpenAIFormat and
// AnthropicFormat are the two shapes most providers copy.
type WireFormat struct {
	Name  string // "openai", "anthropic"
	Label string // for a learner: whose shape it is
	start func(id, model string, promptTokens int) []SSEEvent
	delta func(id, model, text string) []SSEEvent
	end   func(id, model, finish string, u Usage) []SSEEvent
	read  func(SSEEvent) (WireChunk, bool, error)
}

// Start is the events the provider sends before the first text.
func (f WireFormat) Start(id, model string, promptTokens int) []SSEEvent {
	return f.start(id, model, promptTokens)
}

// Delta is the events carrying one piece of text.
func (f WireFormat) Delta(id, model, text string) []SSEEvent { return f.delta(id, model, text) }

// End is the events that close the answer.
func (f WireFormat) End(id, model, finish string, u Usage) []SSEEvent {
	return f.end(id, model, finish, u)
}

// Read turns one of the provider's events into a WireChunk; ok is false
// for events that carry nothing the gateway passes on (a ping, the
// opening of a content block). A malformed event is an error that names
// the format, never a panic.
func (f WireFormat) Read(ev SSEEvent) (c WireChunk, ok bool, err error) {
	c, ok, err = f.read(ev)
	if err != nil {
		return WireChunk{}, false, fmt.Errorf("%s stream: %w", f.Name, err)
	}
	return c, ok, nil
}

// WireFormats are the provider formats the gateway reads.
func WireFormats() []WireFormat { return []WireFormat{OpenAIFormat, AnthropicFormat} }

// LookupWireFormat finds a format by name.
func LookupWireFormat(name string) (WireFormat, error) {
	for _, f := range WireFormats() {
		if f.Name == name {
			return f, nil
		}
	}
	return WireFormat{}, fmt.Errorf("unknown stream format %q", name)
}

// mustJSON encodes v, one of the formats' plain structs of strings,
// numbers and pointers to them, which json.Marshal cannot fail on.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var errNoJSON = errors.New("the data is not a JSON object")
