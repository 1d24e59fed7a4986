package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
)

// fakeOpenAI streams words as chat.completion.chunk events. With failAt
// above 0 it sends an error event instead of that word; with status set it
// answers that status at once.
func fakeOpenAI(t *testing.T, words []string, failAt, status int, gone chan<- struct{}) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body["stream"] != true {
			http.Error(w, `{"error":{"message":"bad body"}}`, 400)
			return
		}
		if status != 0 {
			w.WriteHeader(status)
			fmt.Fprint(w, `{"error":{"message":"overloaded"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		send := func(s string) { fmt.Fprintf(w, "data: %s\n\n", s); fl.Flush() }
		for i, word := range words {
			if failAt > 0 && i == failAt {
				send(`{"error":{"message":"engine crashed"}}`)
				return
			}
			select {
			case <-r.Context().Done():
				if gone != nil {
					close(gone)
				}
				return
			case <-time.After(2 * time.Millisecond):
			}
			send(fmt.Sprintf(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":%q}}]}`, word))
		}
		send(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		send(fmt.Sprintf(`{"id":"x","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":42,"completion_tokens":%d,"total_tokens":%d}}`, len(words), 42+len(words)))
		send("[DONE]")
	}))
}

func TestUpstreamProvider(t *testing.T) {
	words := strings.Fields("Standard shipping takes three to five business days .")
	cases := []struct {
		name       string
		failAt     int
		status     int
		wantStatus string
		wantText   string
	}{
		{"complete", 0, 0, StatusComplete, strings.Join(words, "")},
		{"error mid-stream", 4, 0, StatusError, strings.Join(words[:4], "")},
		{"refused", 0, 503, StatusError, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeOpenAI(t, words, tc.failAt, tc.status, nil)
			defer srv.Close()
			prov := NewUpstreamProvider(&upstream.Client{BaseURL: srv.URL + "/v1"})
			st := newMemStore()
			p := mustNew(t, bareConfig(), Deps{Tiers: tiers(prov, nil), Messages: st})
			var errs []Event
			res, err := p.Run(t.Context(), Request{ConversationID: "c", Question: "How long is shipping?"}, func(ev Event) {
				if ev.Kind == EventError {
					errs = append(errs, ev)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.wantStatus || res.Text != tc.wantText {
				t.Fatalf("status %s text %q err %v", res.Status, res.Text, res.Err)
			}
			if tc.wantStatus == StatusComplete {
				if res.Usage.PromptTokens != 42 || res.Usage.CompletionTokens != len(words) || res.FinishReason != "stop" {
					t.Errorf("usage %+v finish %q: not the server's final chunk", res.Usage, res.FinishReason)
				}
			} else if len(errs) != 1 {
				t.Errorf("error events %+v", errs)
			}
			if saved := st.lastSaved(t); saved.Status != tc.wantStatus || saved.Content != tc.wantText {
				t.Errorf("saved %+v", saved)
			}
		})
	}
}

func TestUpstreamDisconnectClosesTheConnection(t *testing.T) {
	words := strings.Fields(strings.Repeat("word ", 500))
	gone := make(chan struct{})
	srv := fakeOpenAI(t, words, 0, 0, gone)
	defer srv.Close()
	p := mustNew(t, bareConfig(), Deps{Tiers: tiers(NewUpstreamProvider(&upstream.Client{BaseURL: srv.URL + "/v1"}), nil)})
	ctx, leave := context.WithCancel(t.Context())
	defer leave()
	n := 0
	res, _ := p.Run(ctx, Request{Question: "Tell me a lot"}, func(ev Event) {
		if ev.Kind == EventDelta {
			if n++; n == 3 {
				leave()
			}
		}
	})
	if res.Status != StatusCancelled || res.Usage.CompletionTokens != 3 {
		t.Errorf("status %s tokens %d", res.Status, res.Usage.CompletionTokens)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Error("the server never saw the client go away")
	}
}

// TestUpstreamProviderTextHasNoCR: a model whose deltas hold CR (alone, in
// CRLF, or as a CRLF split across chunks) reaches the pipeline with LF
// only, so no CR goes on into pages, streams or the saved answer.
func TestUpstreamProviderTextHasNoCR(t *testing.T) {
	for name, tc := range map[string]struct {
		words []string
		want  string
	}{
		"bare cr":     {[]string{"a\rb"}, "a\nb"},
		"crlf":        {[]string{"a\r\nb"}, "a\nb"},
		"split crlf":  {[]string{"a\r", "\nb"}, "a\nb"},
		"sse payload": {[]string{"ok\r\revent: datastar-merge-signals\rdata: signals {x: 1}"}, "ok\n\nevent: datastar-merge-signals\ndata: signals {x: 1}"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := fakeOpenAI(t, tc.words, 0, 0, nil)
			defer srv.Close()
			p := NewUpstreamProvider(&upstream.Client{BaseURL: srv.URL + "/v1"})
			st, err := p.Stream(context.Background(), ProviderRequest{Model: "m", Messages: nil, MaxTokens: 8})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var text strings.Builder
			for {
				ev, err := st.Recv()
				if err != nil {
					t.Fatalf("recv: %v", err)
				}
				text.WriteString(ev.Text)
				if ev.Done {
					break
				}
			}
			if text.String() != tc.want {
				t.Errorf("text %q, want %q", text.String(), tc.want)
			}
		})
	}
}
