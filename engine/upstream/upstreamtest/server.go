package upstreamtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/latencylab/latencylab/engine/clock"
)

// Server plays a Trace back as an OpenAI-compatible server: the n-th
// streamed request gets recorded request n (cycling), waits its recorded
// time to first token and then each recorded gap, on Clock. It streams
// max_tokens tokens (the recorded length when none is asked), one token per
// chunk, with the shapes the official SDKs expect.
type Server struct {
	Trace Trace
	// Clock times the playback; nil means the wall clock.
	Clock clock.Clock
	// Model is the name /v1/models lists; "" means "recorded".
	Model string

	served atomic.Int64
}

// New returns a server for t on clk.
func New(t Trace, clk clock.Clock) *Server { return &Server{Trace: t, Clock: clk} }

// Served is how many completions have started.
func (s *Server) Served() int { return int(s.served.Load()) }

// words are the answer's text: the timings are the recording's, the words
// are not.
var words = strings.Fields("the first token waits for the whole prompt to be read and every later token waits for one decode step of the batch")

type request struct {
	Model         string          `json:"model"`
	MaxTokens     int             `json:"max_tokens"`
	Stream        bool            `json:"stream"`
	Messages      json.RawMessage `json:"messages"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// ServeHTTP answers /v1/models, /v1/chat/completions and /v1/completions.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	model := s.Model
	if model == "" {
		model = "recorded"
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodGet && path == "/v1/models":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model","owned_by":"upstreamtest"}]}`, model)
		return
	case r.Method != http.MethodPost || (path != "/v1/chat/completions" && path != "/v1/completions"):
		apiError(w, http.StatusNotFound, "no such route: "+r.Method+" "+r.URL.Path)
		return
	}
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiError(w, http.StatusBadRequest, "the body is not a JSON completion request")
		return
	}
	if !req.Stream {
		apiError(w, http.StatusBadRequest, "this test server only streams: send stream=true")
		return
	}
	n := int(s.served.Add(1)) - 1
	q := s.Trace.Requests[n%len(s.Trace.Requests)]
	tokens := req.MaxTokens
	if tokens <= 0 {
		tokens = q.OutputTokens
	}
	s.play(w, r, q, tokens, path == "/v1/chat/completions", req.StreamOptions.IncludeUsage, n)
}

// play streams the answer on the recorded schedule; the client leaving
// ends it.
func (s *Server) play(w http.ResponseWriter, r *http.Request, q TraceRequest, tokens int, chat, usage bool, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	id := fmt.Sprintf("cmpl-replay-%d", n)
	object := "text_completion"
	if chat {
		object = "chat.completion.chunk"
	}
	send := func(choice map[string]any, extra map[string]any) {
		m := map[string]any{"id": id, "object": object, "created": 0, "model": "recorded", "choices": []any{}}
		if choice != nil {
			choice["index"] = 0
			m["choices"] = []any{choice}
		}
		for k, v := range extra {
			m[k] = v
		}
		var b bytes.Buffer
		_ = json.NewEncoder(&b).Encode(m)
		fmt.Fprintf(w, "data: %s\n", b.Bytes())
		flush()
	}
	text := func(t string, finish any) map[string]any {
		if chat {
			return map[string]any{"delta": map[string]any{"content": t}, "finish_reason": finish}
		}
		return map[string]any{"text": t, "finish_reason": finish}
	}
	if chat {
		send(map[string]any{"delta": map[string]any{"role": "assistant", "content": ""}, "finish_reason": nil}, nil)
	}
	clk := clock.Or(s.Clock)
	for k := range tokens {
		wait := q.TTFT()
		if k > 0 {
			wait = q.Gap(k)
		}
		if clock.Sleep(r.Context(), clk, wait) != nil {
			return
		}
		send(text(" "+words[k%len(words)], nil), nil)
	}
	send(text("", "length"), nil)
	if usage {
		send(nil, map[string]any{"usage": map[string]int{"prompt_tokens": q.InputTokens, "completion_tokens": tokens, "total_tokens": q.InputTokens + tokens}})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	flush()
}

// apiError writes OpenAI's error shape.
func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
