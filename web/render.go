package web

import (
	"bytes"
	"context"
	"fmt"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// render writes a templ component as a whole HTML response. It renders to a
// buffer first so a template error becomes a clean 500, not half a page.
func render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// renderString renders a component to a string (SSE fragments).
func renderString(ctx context.Context, comp templ.Component) (string, error) {
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return "", fmt.Errorf("render fragment: %w", err)
	}
	return buf.String(), nil
}

// page builds the layout model. Datastar is loaded only where withJS.
func (s *Server) page(c echo.Context, title, section string) views.Page {
	p := views.Page{Title: title, Section: section, CSSURL: s.assets.URL("app.css")}
	if s.cfg.Model != "" && s.cfg.Hardware != "" {
		p.Engine = s.cfg.Model + " on " + s.cfg.Hardware
	}
	return p
}

func (s *Server) pageWithJS(c echo.Context, title, section string) views.Page {
	p := s.page(c, title, section)
	p.JSURL = s.assets.URL("datastar.js")
	return p
}
