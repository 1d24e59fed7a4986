package web

import (
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// streamSlack is how long past RunTimeout a response may still write: room
// for a run's last "stopped" event after the run itself is cut.
const streamSlack = 30 * time.Second

// extendDeadlinesAfterBody gives a request its stream deadline once its
// whole body has arrived. Until then the server's ReadTimeout holds, so a
// body trickled in byte by byte is cut; after it, a lab run, a chat answer
// or a /v1 completion may stream for RunTimeout. Without this the
// server's WriteTimeout would cut every stream, and the ReadTimeout, still
// armed on the connection's background read, would cancel its context.
func (s *Server) extendDeadlinesAfterBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(c.Response().Writer)
			r.Body = &onEOF{ReadCloser: r.Body, do: func() {
				// Deadlines are on the real connection, so they use the
				// wall clock, not the injected one.
				d := time.Now().Add(s.cfg.RunTimeout + streamSlack)
				_ = rc.SetReadDeadline(d) // ErrNotSupported off a real connection: nothing to extend
				_ = rc.SetWriteDeadline(d)
			}}
		}
		return next(c)
	}
}

// onEOF runs do once, when a read reports the body's end.
type onEOF struct {
	io.ReadCloser
	do   func()
	once sync.Once
}

func (b *onEOF) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.do)
	}
	return n, err
}

// headAsGet routes HEAD like GET, so every page answers HEAD with the
// status and headers its GET would have. It wraps echo rather than being
// echo middleware because echo routes on the request it was handed. The
// request is copied, not changed: net/http (HTTP/1 and HTTP/2) drops the
// body because the request it holds is still a HEAD, and still sends the
// GET's Content-Length.
func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			g := r.WithContext(r.Context())
			g.Method = http.MethodGet
			r = g
		}
		next.ServeHTTP(w, r)
	})
}
