package pipeline

import (
	"encoding/json"
	"strconv"
)

// Normaliser is the gateway's side of one provider stream: it reads the
// provider's bytes as they arrive, in whatever pieces the network makes of
// them, and writes the one event stream the app's own clients read,
// whichever provider answered:
//
//	id: 7
//	data: {"text":" refund"}
//
//	event: done
//	data: {"finish":"stop","output_tokens":300}
//
// Each text event is numbered, so a client that reconnects can say where
// it got to (Last-Event-ID). A provider's error after the first byte
// becomes an error event: the HTTP status went out long ago.
type Normaliser struct {
	Format WireFormat
	dec    SSEDecoder
	seq    int
	finish string
	usage  Usage
	done   bool
}

// GatewayDone and GatewayError name the gateway's end and error events;
// text events use the default type.
const (
	GatewayDone  = "done"
	GatewayError = "error"
)

type gatewayText struct {
	Text string `json:"text"`
}

type gatewayDone struct {
	Finish       string `json:"finish"`
	OutputTokens int    `json:"output_tokens"`
}

type gatewayError struct {
	Message string `json:"message"`
}

// Feed reads the next bytes of the provider's stream and returns the
// gateway's events they complete. A malformed provider event ends the
// stream with an error event and the error; bytes after the end are
// ignored.
func (n *Normaliser) Feed(p []byte) ([]SSEEvent, error) {
	var out []SSEEvent
	for _, ev := range n.dec.Feed(p) {
		if n.done {
			break
		}
		c, ok, err := n.Format.Read(ev)
		if err != nil {
			n.done = true
			return append(out, SSEEvent{Event: GatewayError, Data: mustJSON(gatewayError{Message: "the model's stream was garbled"})}), err
		}
		if !ok {
			continue
		}
		out = append(out, n.take(c)...)
	}
	return out, nil
}

// take keeps a chunk's finish and usage and writes the events it makes.
func (n *Normaliser) take(c WireChunk) []SSEEvent {
	var out []SSEEvent
	if c.Text != "" {
		n.seq++
		out = append(out, SSEEvent{ID: strconv.Itoa(n.seq), Data: mustJSON(gatewayText{Text: c.Text})})
	}
	if c.Finish != "" {
		n.finish = c.Finish
	}
	n.usage.PromptTokens = max(n.usage.PromptTokens, c.Usage.PromptTokens)
	n.usage.CompletionTokens = max(n.usage.CompletionTokens, c.Usage.CompletionTokens)
	switch {
	case c.Err != "":
		n.done = true
		out = append(out, SSEEvent{Event: GatewayError, Data: mustJSON(gatewayError{Message: c.Err})})
	case c.Done:
		n.done = true
		out = append(out, SSEEvent{Event: GatewayDone, Data: mustJSON(gatewayDone{Finish: n.finish, OutputTokens: n.usage.CompletionTokens})})
	}
	return out
}

// Usage is what the provider reported so far.
func (n *Normaliser) Usage() Usage { return n.usage }

// ReadGatewayEvent reads one of the gateway's events as a client does.
// ok is false for an event the client does not know, which it skips.
func ReadGatewayEvent(ev SSEEvent) (c WireChunk, ok bool, err error) {
	switch ev.Event {
	case "", "message":
		var t gatewayText
		if err := json.Unmarshal([]byte(ev.Data), &t); err != nil {
			return WireChunk{}, false, errNoJSON
		}
		return WireChunk{Text: t.Text}, true, nil
	case GatewayDone:
		var d gatewayDone
		if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
			return WireChunk{}, false, errNoJSON
		}
		return WireChunk{Done: true, Finish: d.Finish, Usage: Usage{CompletionTokens: d.OutputTokens}}, true, nil
	case GatewayError:
		var e gatewayError
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil || e.Message == "" {
			return WireChunk{Err: "the stream failed"}, true, nil
		}
		return WireChunk{Err: e.Message}, true, nil
	}
	return WireChunk{}, false, nil
}
