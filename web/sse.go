package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"
)

// This file is the one adapter between the app and datastar-go. The SDK
// writes Datastar 1.0 events, which the vendored beta.11 client ignores, so
// only its signal reader and SSE writer are used, with the beta event names
// and data-line keys.
const (
	eventMergeFragments datastar.EventType = "datastar-merge-fragments"
	eventMergeSignals   datastar.EventType = "datastar-merge-signals"
)

// readSignals decodes the request's Datastar signals. It must run before
// openStream, which takes over the response.
func readSignals(r *http.Request, into any) error {
	return datastar.ReadSignals(r, into)
}

// stream is an open SSE response.
type stream struct {
	sse *datastar.ServerSentEventGenerator
}

// openStream sets the headers that keep proxies from buffering, writes the
// status (echo logs a superfluous WriteHeader otherwise) and opens the SSE
// writer, which flushes the headers.
func openStream(c echo.Context, status int) *stream {
	h := c.Response().Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Response().WriteHeader(status)
	return &stream{sse: datastar.NewSSE(c.Response(), c.Request())}
}

// mergeHTML morphs html into the element matched by selector.
func (s *stream) mergeHTML(selector, html string) error {
	// A selector is one line: a line end in it is CSS whitespace, so it
	// becomes a space rather than a second selector line.
	lines := []string{"selector " + strings.ReplaceAll(normalizeLineEnds(selector), "\n", " "), "mergeMode morph"}
	lines = dataLines(lines, "fragments", strings.TrimSpace(normalizeLineEnds(html)))
	return s.sse.Send(eventMergeFragments, lines)
}

// patch renders comp and morphs it into the element with id.
func (s *stream) patch(ctx context.Context, id string, comp templ.Component) error {
	html, err := renderString(ctx, comp)
	if err != nil {
		return err
	}
	return s.mergeHTML("#"+id, html)
}

// mergeSignals sets signals from a JSON object.
func (s *stream) mergeSignals(json string) error {
	return s.sse.Send(eventMergeSignals, dataLines(nil, "signals", json))
}

// sseLineEnds replaces what could end an SSE line or hide in one. The
// beta.11 client's parser (like the SSE spec) ends a line at CR, LF or
// CRLF, so text holding a bare CR could start a line of its own — a new
// field or, after an empty line, a new event whose signals the client
// evaluates as script. CRLF and CR become LF, which dataLines then splits
// on; LF is what HTML and JSON read them as anyway. NUL becomes U+FFFD, as
// the HTML parser and TextDecoder would make it, so no reader downstream
// ever sees a raw NUL. U+2028 and U+2029 are left as they are: neither the
// client's byte-level parser nor HTML treats them as line ends, and JSON
// from encoding/json escapes them.
var sseLineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "\uFFFD")

// normalizeLineEnds makes text safe to split into SSE data lines: only LF
// remains as a line end, and invalid UTF-8 becomes U+FFFD (what the
// client's TextDecoder would show) so a byte sequence cannot smuggle
// anything past the split.
func normalizeLineEnds(text string) string {
	text = strings.ToValidUTF8(text, "\uFFFD") // no copy when valid
	if !strings.ContainsAny(text, "\r\x00") {
		return text // the common case: every patch goes through here
	}
	return sseLineEnds.Replace(text)
}

// dataLines appends value to lines as data lines "key <line>", one per line
// of value, after normalizeLineEnds. Every value the adapter writes goes
// through normalizeLineEnds, so no text — a selector, signals JSON, user or
// model words in a fragment — can start a line of the event: each one begins with the
// SDK's "data: " and the key. The client joins a key's lines with LF, so
// the value arrives intact.
func dataLines(lines []string, key, value string) []string {
	for _, l := range strings.Split(normalizeLineEnds(value), "\n") {
		lines = append(lines, key+" "+l)
	}
	return lines
}
