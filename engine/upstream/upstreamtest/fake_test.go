package upstreamtest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
)

const (
	fakeTTFT = 200 * time.Millisecond
	fakeGap  = 30 * time.Millisecond
)

// measured is what one stream through the real client showed.
type measured struct {
	res    upstream.Result
	err    error
	tokens []int           // Tokens of each token-carrying chunk
	at     []time.Duration // arrival of each token-carrying chunk, from Sent
}

// measure streams one request to f through the client inside a synctest
// bubble, so every wait is exact.
func measure(t *testing.T, f Fake, chat, running bool, req upstream.Request) measured {
	t.Helper()
	var m measured
	synctest.Test(t, func(t *testing.T) {
		f.TTFT, f.Gap = fakeTTFT, fakeGap
		client := &upstream.Client{BaseURL: "http://fake/v1", HTTP: InMemory(&f), RunningCounts: running}
		if chat {
			req.Messages = []upstream.Message{{Role: "user", Content: "why is the first token slow"}}
		} else {
			req.Prompt = "why is the first token slow"
		}
		var at []time.Time
		m.res, m.err = client.Stream(context.Background(), req, func(c upstream.Chunk) {
			if c.Tokens > 0 {
				m.tokens = append(m.tokens, c.Tokens)
				at = append(at, c.At)
			}
		})
		for _, a := range at {
			m.at = append(m.at, a.Sub(m.res.Sent))
		}
	})
	return m
}

// schedule is when each chunk of n tokens merged by interval arrives and
// how many tokens it carries.
func schedule(n, interval int) (tokens []int, at []time.Duration) {
	for first := 0; first < n; first += interval {
		last := min(first+interval, n) - 1
		tokens = append(tokens, last-first+1)
		at = append(at, fakeTTFT+time.Duration(last)*fakeGap)
	}
	return tokens, at
}

// Every format, chat and text completions: the client measures TTFT, the
// time of every chunk and the tokens each carries as the server sent them.
func TestClientMeasuresEveryFormat(t *testing.T) {
	cases := []struct {
		name     string
		formats  []Format // nil: all four
		fake     Fake
		req      upstream.Request
		running  bool
		interval int // tokens per chunk the client should see
		want     func(f Format) (tokens int, finish string)
	}{
		{name: "a token per chunk", req: upstream.Request{MaxTokens: 5, IgnoreEOS: true}, running: true,
			want: func(Format) (int, string) { return 5, "length" }},
		{name: "keep-alive comments and CRLF", fake: Fake{CRLF: true, KeepAlive: true},
			req: upstream.Request{MaxTokens: 4, IgnoreEOS: true}, running: true,
			want: func(Format) (int, string) { return 4, "length" }},
		{name: "tokens merged into one chunk, running counts", formats: []Format{VLLM, SGLang},
			fake: Fake{StreamInterval: 3}, req: upstream.Request{MaxTokens: 7, IgnoreEOS: true}, running: true, interval: 3,
			want: func(Format) (int, string) { return 7, "length" }},
		{name: "no usage: one token per chunk", fake: Fake{NoUsage: true},
			req:  upstream.Request{MaxTokens: 5, IgnoreEOS: true},
			want: func(Format) (int, string) { return 5, "length" }},
		{name: "early end of answer without ignore_eos", fake: Fake{NaturalLength: 3},
			req: upstream.Request{MaxTokens: 6, IgnoreEOS: true}, running: true,
			want: func(f Format) (int, string) {
				if f.HonoursIgnoreEOS() {
					return 6, "length"
				}
				return 3, "stop"
			}},
	}
	for _, c := range cases {
		formats := c.formats
		if formats == nil {
			formats = Formats
		}
		for _, format := range formats {
			for _, chat := range []bool{true, false} {
				t.Run(c.name+"/"+string(format)+endpointName(chat), func(t *testing.T) {
					f := c.fake
					f.Format = format
					m := measure(t, f, chat, c.running, c.req)
					wantTokens, wantFinish := c.want(format)
					if m.err != nil {
						t.Fatal(m.err)
					}
					tokens, at := schedule(wantTokens, max(1, c.interval))
					if !slices.Equal(m.tokens, tokens) || !slices.Equal(m.at, at) {
						t.Errorf("chunks carry %v tokens at %v, want %v at %v", m.tokens, m.at, tokens, at)
					}
					if m.res.CompletionTokens() != wantTokens || m.res.Tokens != wantTokens || m.res.FinishReason != wantFinish {
						t.Errorf("result %d tokens (chunks %d), finish %q; want %d, %q",
							m.res.CompletionTokens(), m.res.Tokens, m.res.FinishReason, wantTokens, wantFinish)
					}
					if got := len(strings.Fields(m.res.Text)); got != wantTokens {
						t.Errorf("text %q has %d words, want %d", m.res.Text, got, wantTokens)
					}
				})
			}
		}
	}
}

// Merged chunks without running counts: each chunk counts as one token, so
// the per-chunk count is low, but the server's final usage still gives the
// right total, which is what bench and the labs' totals read.
func TestMergedChunksWithoutRunningCounts(t *testing.T) {
	for _, format := range []Format{VLLM, SGLang} {
		m := measure(t, Fake{Format: format, StreamInterval: 3}, true, false, upstream.Request{MaxTokens: 7, IgnoreEOS: true})
		if m.err != nil || m.res.CompletionTokens() != 7 || m.res.Tokens != 3 || len(m.at) != 3 {
			t.Errorf("%s: usage %d, chunk tokens %d in %d chunks, err %v; want usage 7 over 3 chunks",
				format, m.res.CompletionTokens(), m.res.Tokens, len(m.at), m.err)
		}
	}
}

// Refusals and failures come back as one sentence in the server's words,
// with the tokens that did arrive still measured.
func TestClientReportsEachServersFailures(t *testing.T) {
	cases := []struct {
		name    string
		formats []Format
		fake    Fake
		model   string
		status  int    // a *ServerError with this status; -1: ErrIncomplete
		message string // in the error's text
		tokens  int    // token-carrying chunks before the failure
	}{
		{"model not found", []Format{VLLM, SGLang, Ollama}, Fake{Model: "served"}, "other", 404, "other", 0},
		{"context too long", []Format{VLLM, SGLang, LlamaCpp}, Fake{ContextTokens: 2}, "", 400, "context", 0},
		{"server closes mid-stream", Formats, Fake{CloseAfter: 2}, "", -1, "closed the stream", 2},
		{"error event mid-stream", []Format{VLLM, SGLang, LlamaCpp}, Fake{FailAfter: 2}, "", 0, "while decoding", 2},
		{"failure mid-answer on Ollama", []Format{Ollama}, Fake{FailAfter: 2}, "", -1, "closed the stream", 2},
	}
	for _, c := range cases {
		for _, format := range c.formats {
			for _, chat := range []bool{true, false} {
				t.Run(c.name+"/"+string(format)+endpointName(chat), func(t *testing.T) {
					f := c.fake
					f.Format = format
					m := measure(t, f, chat, true, upstream.Request{Model: c.model, MaxTokens: 5, IgnoreEOS: true})
					var se *upstream.ServerError
					switch {
					case c.status < 0 && !errors.Is(m.err, upstream.ErrIncomplete):
						t.Fatalf("error %v, want ErrIncomplete", m.err)
					case c.status >= 0 && (!errors.As(m.err, &se) || se.Status != c.status):
						t.Fatalf("error %v, want a server error with status %d", m.err, c.status)
					}
					msg := m.err.Error()
					if !strings.Contains(msg, c.message) || strings.ContainsAny(msg, "{}\n") || strings.Contains(msg, "upstream.") {
						t.Errorf("error %q: want one plain sentence naming %q", msg, c.message)
					}
					if len(m.tokens) != c.tokens {
						t.Errorf("%d token chunks before the failure, want %d", len(m.tokens), c.tokens)
					}
				})
			}
		}
	}
}

func endpointName(chat bool) string {
	if chat {
		return "/chat"
	}
	return "/completions"
}
