package web

import (
	"context"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// roomStream is a long-lived SSE stream to a room page. Every write gets
// a deadline, so a client that stops reading is dropped after
// StreamWriteTimeout instead of holding a goroutine and its buffers.
type roomStream struct {
	st      *stream
	rc      *http.ResponseController
	timeout time.Duration
}

func (s *Server) openRoomStream(c echo.Context) *roomStream {
	rc := http.NewResponseController(c.Response().Writer)
	// The server's ReadTimeout would otherwise end a stream that has no
	// body; a room stream lasts as long as the page is open.
	_ = rc.SetReadDeadline(time.Time{}) // ErrNotSupported off a real connection: nothing to lift
	rs := &roomStream{rc: rc, timeout: s.cfg.Workshops.StreamWriteTimeout}
	rs.arm()
	rs.st = openStream(c, http.StatusOK)
	return rs
}

func (rs *roomStream) arm() { _ = rs.rc.SetWriteDeadline(time.Now().Add(rs.timeout)) }

func (rs *roomStream) patch(ctx context.Context, id string, comp templ.Component) error {
	rs.arm()
	return rs.st.patch(ctx, id, comp)
}

// patchIfChanged sends comp only when its HTML differs from *last.
func (rs *roomStream) patchIfChanged(ctx context.Context, last *string, id string, comp templ.Component) error {
	html, err := renderString(ctx, comp)
	if err != nil {
		return err
	}
	if html == *last {
		return nil
	}
	rs.arm()
	if err := rs.st.mergeHTML("#"+id, html); err != nil {
		return err
	}
	*last = html
	return nil
}

func (rs *roomStream) signals(json string) error {
	rs.arm()
	return rs.st.mergeSignals(json)
}
