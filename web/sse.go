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
	lines := []string{"selector " + selector, "mergeMode morph"}
	for _, l := range strings.Split(strings.TrimSpace(html), "\n") {
		lines = append(lines, "fragments "+l)
	}
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
	return s.sse.Send(eventMergeSignals, []string{"signals " + json})
}
