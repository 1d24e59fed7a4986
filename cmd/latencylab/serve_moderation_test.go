package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
)

// cardContext makes the text model repeat a valid card number and an
// e-mail address in its answer.
const cardContext = "Customer record: Maria Lopez paid with card 4111 1111 1111 1111 on March 3. Her e-mail is maria.lopez@example.com and she asked for a refund of the double charge."

func chatBody(system, user string) string {
	b, _ := json.Marshal(map[string]any{
		"stream": true, "temperature": 0, "max_tokens": 120, "stream_options": map[string]bool{"include_usage": true},
		"messages": []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}},
	})
	return string(b)
}

// streamChat posts a streamed chat and returns the streamed text, the
// finish reason and the raw body.
func streamChat(t *testing.T, base, body string) (text, finish, raw string) {
	t.Helper()
	resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	all, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, all)
	}
	sc := bufio.NewScanner(strings.NewReader(string(all)))
	var last string
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		last = d
		var c struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(d), &c) != nil || len(c.Choices) == 0 {
			continue
		}
		text += c.Choices[0].Delta.Content
		if c.Choices[0].FinishReason != nil {
			finish = *c.Choices[0].FinishReason
		}
	}
	if last != "[DONE]" {
		t.Fatalf("stream ends with %q, not [DONE]", last)
	}
	return text, finish, string(all)
}

// serve --moderate-api mounts the moderated API: the card in the context
// never reaches the client and the stream ends with content_filter; a clean
// answer streams with stop.
func TestServeModeratesTheAPI(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--moderate-api", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "serve.db")}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("read the startup line: %v", err)
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("startup line %q has no URL", line)
	}
	base := strings.Fields(line[i:])[0]

	tests := []struct {
		name, system, user, finish string
	}{
		{"card and e-mail", cardContext, "What did Maria pay with and how can I reach her?", "content_filter"},
		{"clean", "Batching shares one weight read across many sequences. Continuous batching admits requests at token boundaries.",
			"How does continuous batching work?", "stop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, finish, raw := streamChat(t, base, chatBody(tc.system, tc.user))
			if finish != tc.finish || strings.Contains(raw, "4111") || strings.Contains(raw, "@example.com") {
				t.Fatalf("finish %q (want %s), streamed %q", finish, tc.finish, text)
			}
			if tc.finish == "stop" && text == "" {
				t.Fatal("clean answer is empty")
			}
		})
	}
	cancel()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// bench's API is unmoderated, so it measures the engine alone: the same
// request streams the whole answer, card included.
func TestBenchAPIIsUnmoderated(t *testing.T) {
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(1_700_000_000, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	api, err := newAPI(eng)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(api)
	defer ts.Close()
	text, finish, _ := streamChat(t, ts.URL, chatBody(cardContext, "What did Maria pay with and how can I reach her?"))
	if finish != "stop" || !strings.Contains(text, "4111 1111 1111 1111") {
		t.Fatalf("finish %q, text %q: want the whole answer", finish, text)
	}
}
