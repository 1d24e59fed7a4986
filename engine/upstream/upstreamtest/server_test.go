package upstreamtest

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/upstream"
)

func TestRecordedTraceLoads(t *testing.T) {
	tr := Recorded()
	if !strings.HasPrefix(tr.Source, "https://github.com/ai-dynamo/aiperf/blob/") || len(tr.Requests) != 8 {
		t.Fatalf("source %q, %d requests", tr.Source, len(tr.Requests))
	}
	for _, c := range []struct{ name, file, err string }{
		{"not json", "{", "read trace"},
		{"empty", `{"requests": []}`, "no requests"},
		{"gaps short", `{"requests": [{"ttft_ms": 1, "output_tokens": 3, "itl_ms": [1]}]}`, "one gap per token"},
		{"negative gap", `{"requests": [{"ttft_ms": 1, "output_tokens": 2, "itl_ms": [-1]}]}`, "gap outside"},
		{"endless wait", `{"requests": [{"ttft_ms": 1e300, "output_tokens": 2, "itl_ms": [1]}]}`, "TTFT of 0 to 1 hour"},
	} {
		if _, err := LoadTrace(strings.NewReader(c.file)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}

// A stream through the real client measures exactly the recorded TTFT and
// gaps on a jump clock, for chat and text completions, and plays any length
// by repeating the recorded gaps.
func TestServerReplaysRecordedTimings(t *testing.T) {
	tr := Recorded()
	for _, c := range []struct {
		name   string
		chat   bool
		tokens int
	}{
		{"chat, recorded length", true, 0},
		{"completions, 5 tokens", false, 5},
		{"chat, longer than recorded", true, tr.Requests[0].OutputTokens + 3},
	} {
		// The bubble fakes the wall clock both sides read; the in-memory
		// pipe lets the server run no further ahead than the client.
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := New(tr, nil)
				client := &upstream.Client{BaseURL: "http://replay/v1", HTTP: InMemory(srv)}
				req := upstream.Request{Model: "recorded", MaxTokens: c.tokens}
				if c.chat {
					req.Messages = []upstream.Message{{Role: "user", Content: "hi"}}
				} else {
					req.Prompt = "hi"
				}
				var at []time.Time
				res, err := client.Stream(context.Background(), req, func(k upstream.Chunk) {
					if k.Text != "" {
						at = append(at, k.At)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				q := tr.Requests[0]
				want := c.tokens
				if want == 0 {
					want = q.OutputTokens
				}
				if len(at) != want || res.Usage == nil || res.Usage.CompletionTokens != want || res.FinishReason != "length" {
					t.Fatalf("%d tokens, usage %+v, finish %q; want %d", len(at), res.Usage, res.FinishReason, want)
				}
				if got := at[0].Sub(res.Sent); got != q.TTFT() {
					t.Errorf("TTFT %v, recorded %v", got, q.TTFT())
				}
				for k := 1; k < len(at); k++ {
					if got := at[k].Sub(at[k-1]); got != q.Gap(k) {
						t.Fatalf("gap %d: %v, recorded %v", k, got, q.Gap(k))
					}
				}
			})
		})
	}
}

// Requests take the recorded requests in turn; bad requests get OpenAI's
// error shape.
func TestServerCyclesAndRefuses(t *testing.T) {
	clk := clocktest.NewJump(time.Unix(0, 0))
	srv := New(Recorded(), clk)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := &upstream.Client{BaseURL: ts.URL + "/v1", Clock: clk}
	for i := range 3 {
		res, err := client.Stream(context.Background(), upstream.Request{Prompt: "x", MaxTokens: 1}, nil)
		if err != nil || res.Sent.IsZero() {
			t.Fatal(err)
		}
		if srv.Served() != i+1 {
			t.Fatalf("served %d after %d requests", srv.Served(), i+1)
		}
	}
	_, err := (&upstream.Client{BaseURL: ts.URL + "/nope", Clock: clk}).Stream(context.Background(), upstream.Request{Prompt: "x"}, nil)
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "no such route") {
		t.Errorf("wrong route: %v", err)
	}
}

func FuzzLoadTrace(f *testing.F) {
	f.Add(string(recorded))
	f.Add(`{"requests": [{"ttft_ms": 1, "output_tokens": 2, "itl_ms": [3]}]}`)
	f.Add(`{"requests": [{"ttft_ms": -1}]}`)
	f.Add(`{"requests": [{"ttft_ms": 1, "output_tokens": 2, "itl_ms": [1e300]}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, file string) {
		tr, err := LoadTrace(strings.NewReader(file))
		if err != nil {
			return
		}
		// A trace that loads can be played: every gap is there.
		for _, q := range tr.Requests {
			if q.TTFT() < 0 || q.Gap(q.OutputTokens+5) < 0 {
				t.Fatalf("request %+v plays a negative wait", q)
			}
		}
	})
}
