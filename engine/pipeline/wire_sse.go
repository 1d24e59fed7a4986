package pipeline

import (
	"bytes"
	"strings"
)

// SSEEvent is one server-sent event as it travels on the wire: the fields
// a stream of chat-completion chunks uses. Retry and comments carry
// nothing a chunk needs, so they are read and dropped.
type SSEEvent struct {
	ID    string // the id: line; "" when the event has none
	Event string // the event: line; "" is the default type, "message"
	Data  string // the data: lines joined with "\n"
}

// Encode frames e as the SSE specification writes it: an id and event line
// when set, one data line per line of Data, then the blank line that ends
// the event. Line ends inside ID, Event or Data (CR, LF or CRLF) are each
// split into lines of their own, so no field can smuggle in a second event.
func (e SSEEvent) Encode() []byte {
	var b bytes.Buffer
	if e.ID != "" {
		b.WriteString("id: " + oneLine(e.ID) + "\n")
	}
	if e.Event != "" {
		b.WriteString("event: " + oneLine(e.Event) + "\n")
	}
	for _, line := range strings.Split(lfOnly.Replace(e.Data), "\n") {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteByte('\n')
	return b.Bytes()
}

var (
	lfOnly      = strings.NewReplacer("\r\n", "\n", "\r", "\n")
	noLineEnds  = strings.NewReplacer("\r", " ", "\n", " ")
	maxSSEBytes = 1 << 20 // a line longer than this is a broken stream, not a chunk
)

// oneLine keeps a single-line field on one line.
func oneLine(s string) string { return noLineEnds.Replace(s) }

// SSEDecoder reads server-sent events out of bytes that arrive in pieces
// of any size, as a network read delivers them: an event is complete only
// once the blank line after it has arrived, however its bytes were split.
// It follows the parsing rules of the SSE specification: a line ends at LF,
// CRLF or a bare CR; "field: value" loses one space after the colon; lines
// starting with a colon are comments; an event with no data line is not
// dispatched. The zero value is ready to use.
type SSEDecoder struct {
	line    []byte   // the current, unfinished line
	afterCR bool     // the last byte was a CR: an LF right after it is the same line end
	cur     SSEEvent // fields read so far for the next event
	data    []string // its data lines
	// Overflow is set when a line grew past 1 MiB; the decoder then drops
	// that line's bytes until it ends.
	Overflow bool
}

// Feed reads p and returns the events it completed, in order.
func (d *SSEDecoder) Feed(p []byte) []SSEEvent {
	var out []SSEEvent
	for _, c := range p {
		if d.afterCR {
			d.afterCR = false
			if c == '\n' {
				continue
			}
		}
		switch c {
		case '\r', '\n':
			d.afterCR = c == '\r'
			if ev, ok := d.endLine(); ok {
				out = append(out, ev)
			}
		default:
			if len(d.line) < maxSSEBytes {
				d.line = append(d.line, c)
			} else {
				d.Overflow = true
			}
		}
	}
	return out
}

// endLine handles one complete line; a blank line dispatches the event.
func (d *SSEDecoder) endLine() (SSEEvent, bool) {
	line := string(d.line)
	d.line = d.line[:0]
	if line == "" {
		ev, ok := d.cur, d.data != nil
		ev.Data = strings.Join(d.data, "\n")
		d.cur, d.data = SSEEvent{ID: d.cur.ID}, nil // the last id carries over, as the spec says
		if ok {
			return ev, true
		}
		return SSEEvent{}, false
	}
	if strings.HasPrefix(line, ":") {
		return SSEEvent{}, false
	}
	field, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch field {
	case "data":
		d.data = append(d.data, value)
	case "event":
		d.cur.Event = value
	case "id":
		if !strings.ContainsRune(value, 0) {
			d.cur.ID = value
		}
	}
	return SSEEvent{}, false
}
