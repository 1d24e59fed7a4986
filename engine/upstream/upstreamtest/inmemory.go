package upstreamtest

import (
	"io"
	"net/http"
)

// InMemory is an HTTP client that calls h in the same process through a
// pipe, with no socket: inside a testing/synctest bubble every wait is
// then on the bubble's fake time, so a replay measures exactly the
// recorded timings.
func InMemory(h http.Handler) *http.Client {
	return &http.Client{Transport: pipeTransport{h}}
}

type pipeTransport struct{ h http.Handler }

// RoundTrip serves req on a goroutine and returns as soon as the handler
// writes its header; the body streams through an unbuffered pipe, so the
// handler runs no further ahead than the reader.
func (t pipeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, body: pw, ready: make(chan int, 1)}
	go func() {
		t.h.ServeHTTP(w, req)
		w.WriteHeader(http.StatusOK) // no-op when the handler wrote one
		pw.Close()
	}()
	select {
	case status := <-w.ready:
		return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: w.header,
			Body: readCloser{pr, func() { pr.Close() }}, Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
	case <-req.Context().Done():
		pr.Close()
		return nil, req.Context().Err()
	}
}

// pipeWriter is the handler's side of the pipe.
type pipeWriter struct {
	header  http.Header
	body    *io.PipeWriter
	ready   chan int
	written bool
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(status int) {
	if !w.written {
		w.written = true
		w.ready <- status
	}
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// Flush is a no-op: every write already waits for its reader.
func (w *pipeWriter) Flush() {}

type readCloser struct {
	io.Reader
	close func()
}

func (r readCloser) Close() error { r.close(); return nil }
