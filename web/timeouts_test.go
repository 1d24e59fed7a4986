package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestSlowBodyIsCut sends headers and the first byte of a body, then
// nothing: the server's read timeout must end the request (a 408, or the
// connection closed) long before the test's own safety deadline, and the
// handler must not act on the part that arrived.
func TestSlowBodyIsCut(t *testing.T) {
	tests := []struct {
		path, ctype, body string
	}{
		{"/lessons/first-token/done", "application/x-www-form-urlencoded", "done=1&x=" + strings.Repeat("a", 50)},
		{"/labs/ticker/run", "application/json", `{"labTicker":{"steps":1,"gapMs":1}}` + strings.Repeat(" ", 50)},
		{"/lessons/first-token/drill", "application/x-www-form-urlencoded", "answer=" + strings.Repeat("a", 50)},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s := newTestServer(t, func(c *Config) { c.Limits.ReadTimeout = 300 * time.Millisecond })
			base, _ := serveReal(t, s)
			u, _ := url.Parse(base)
			conn, err := net.Dial("tcp", u.Host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// A safety net only: the assertion is which of the two ends it.
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"+
				"Datastar-Request: true\r\nCookie: %s=%s\r\n\r\n%c",
				tt.path, u.Host, tt.ctype, len(tt.body), learnerCookie, strings.Repeat("ab", 16), tt.body[0])
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			var ne net.Error
			switch {
			case err == nil:
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusRequestTimeout {
					t.Errorf("status %d, want 408: %.3000s", resp.StatusCode, b)
				}
			case err == io.EOF || err == io.ErrUnexpectedEOF:
				// closed without a response: also cut
			case asNetError(err, &ne) && ne.Timeout():
				t.Fatal("the server still waits for the body: no read timeout")
			default:
				t.Logf("connection ended with %v", err)
			}
			if n := learnerRows(t, s); n != 0 {
				t.Errorf("%d learner rows from a body that never arrived", n)
			}
		})
	}
}

func asNetError(err error, ne *net.Error) bool {
	e, ok := err.(net.Error)
	if ok {
		*ne = e
	}
	return ok
}

// TestStreamsOutliveTheServerTimeouts runs a lab for several times the
// server's read and write timeouts: the stream must reach its final frame
// and be saved, because a stream extends its own deadlines once its body
// is in.
func TestStreamsOutliveTheServerTimeouts(t *testing.T) {
	s := newTestServer(t, func(c *Config) {
		// Long enough for the page itself on a loaded machine (the whole
		// suite runs packages in parallel), short beside the stream.
		c.Limits.ReadTimeout, c.Limits.WriteTimeout = 500*time.Millisecond, 500*time.Millisecond
	})
	base, _ := serveReal(t, s)
	c := client(t)
	get(t, c, base+"/labs/ticker")
	resp := postRun(t, context.Background(), c, base, `{"labTicker":{"steps":16,"gapMs":150}}`)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !strings.Contains(string(b), "Done: words") || !strings.Contains(string(b), "#lab-ticker-runs") {
		t.Errorf("stream cut (err %v); got %.300s … %.300s", err, b, b[max(0, len(b)-300):])
	}
	if n := learnerRows(t, s); n != 1 {
		t.Errorf("%d learner rows, want the run saved under its learner", n)
	}
}

// TestIdleConnectionsAreClosed keeps a connection open after a request:
// the idle timeout must close it.
func TestIdleConnectionsAreClosed(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.Limits.IdleTimeout = 200 * time.Millisecond })
	base, _ := serveReal(t, s)
	u, _ := url.Parse(base)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", u.Host)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("idle connection: read %v, want the server to close it (EOF)", err)
	}
}
