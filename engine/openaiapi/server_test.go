package openaiapi

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/textmodel"
)

const testModel = "llama-3.1-8b"

// newLive serves a live engine paced by a fake clock, so streams finish at
// CPU speed while every engine timestamp is exactly as modelled.
func newLive(t *testing.T) (*httptest.Server, *live.Engine) {
	t.Helper()
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(1_700_000_000, 0))})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Engine: eng, ModelName: testModel})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); _ = eng.Close() })
	return ts, eng
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseData returns the data payloads of a stream, in order.
func sseData(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// The raw wire, checked against every rule the SDKs rely on.
func TestChatStreamWireRules(t *testing.T) {
	ts, _ := newLive(t)
	resp := post(t, ts.URL+"/v1/chat/completions", `{"model":"llama-3.1-8b","stream":true,
		"stream_options":{"include_usage":true},"temperature":0,"max_tokens":30,
		"messages":[{"role":"system","content":"Prefill reads the whole prompt at once. Decode makes one token per step."},
		{"role":"user","content":"What does decode do?"}]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	data := sseData(t, resp.Body)
	if len(data) < 4 || data[len(data)-1] != "[DONE]" {
		t.Fatalf("stream %q does not end with [DONE]", data)
	}
	var id, text string
	var finishes int
	for i, d := range data[:len(data)-1] {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(d), &raw); err != nil {
			t.Fatalf("chunk %d not JSON: %s", i, d)
		}
		if _, bad := raw["error"]; bad {
			t.Fatalf("chunk %d has an error key: %s", i, d)
		}
		var c chatChunk
		_ = json.Unmarshal([]byte(d), &c)
		if i == 0 {
			id = c.ID
		}
		if c.ID != id || !strings.HasPrefix(id, "chatcmpl-") || c.Object != "chat.completion.chunk" || c.Model != testModel {
			t.Fatalf("chunk %d: id %q object %q model %q (first id %q)", i, c.ID, c.Object, c.Model, id)
		}
		last := i == len(data)-2
		if last {
			if string(raw["choices"]) != "[]" || c.Usage == nil || c.Usage.CompletionTokens == 0 ||
				c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
				t.Fatalf("usage chunk wrong: %s", d)
			}
			continue
		}
		if len(c.Choices) != 1 {
			t.Fatalf("chunk %d has %d choices", i, len(c.Choices))
		}
		if (c.Choices[0].Delta.Role == "assistant") != (i == 0) {
			t.Fatalf("chunk %d: role %q (want assistant only in the first delta)", i, c.Choices[0].Delta.Role)
		}
		if c.Choices[0].Delta.Content != nil {
			text += *c.Choices[0].Delta.Content
		}
		if c.Choices[0].FinishReason != nil {
			finishes++
			if i != len(data)-3 {
				t.Fatalf("finish_reason on chunk %d, not the last content chunk", i)
			}
		}
	}
	if finishes != 1 || text == "" {
		t.Fatalf("finishes %d, text %q", finishes, text)
	}
}

func TestErrorShapes(t *testing.T) {
	ts, _ := newLive(t)
	small, _ := New(Config{Engine: stubEngine{}, ModelName: testModel, MaxBodyBytes: 64})
	busy, _ := New(Config{Engine: stubEngine{waiting: 5}, ModelName: testModel, MaxWaiting: 5})
	smallTS, busyTS := httptest.NewServer(small), httptest.NewServer(busy)
	defer smallTS.Close()
	defer busyTS.Close()
	chat := `{"messages":[{"role":"user","content":"hi"}]`
	cases := []struct {
		name, method, url, body string
		status                  int
		typ, code, param, msg   string
	}{
		{"bad json", "POST", ts.URL + "/v1/chat/completions", `{"messages":`, 400, "invalid_request_error", "", "", "not valid JSON"},
		{"no messages", "POST", ts.URL + "/v1/chat/completions", `{"messages":[]}`, 400, "invalid_request_error", "", "messages", "non-empty"},
		{"n=2", "POST", ts.URL + "/v1/chat/completions", chat + `,"n":2}`, 400, "invalid_request_error", "", "n", "n=1"},
		{"stream_options without stream", "POST", ts.URL + "/v1/chat/completions", chat + `,"stream_options":{"include_usage":true}}`, 400, "invalid_request_error", "", "stream_options", "stream is true"},
		{"context length", "POST", ts.URL + "/v1/chat/completions", chat + `,"max_tokens":131072}`, 400, "invalid_request_error", "context_length_exceeded", "messages",
			"This model's maximum context length is 131072 tokens. However, you requested"},
		{"completion context length", "POST", ts.URL + "/v1/completions", `{"prompt":"hi","max_tokens":200000}`, 400, "invalid_request_error", "context_length_exceeded", "prompt", "maximum context length"},
		{"bad temperature", "POST", ts.URL + "/v1/completions", `{"prompt":"hi","temperature":9}`, 400, "invalid_request_error", "", "temperature", "0..2"},
		{"unknown model", "POST", ts.URL + "/v1/chat/completions", `{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}`, 404, "invalid_request_error", "model_not_found", "model", "gpt-9"},
		{"wrong method", "GET", ts.URL + "/v1/chat/completions", "", 405, "invalid_request_error", "method_not_allowed", "", "use POST"},
		{"unknown route", "GET", ts.URL + "/v1/nothing", "", 404, "invalid_request_error", "not_found", "", "no route"},
		{"too big", "POST", smallTS.URL + "/v1/chat/completions", chat + `,"stop":"` + strings.Repeat("x", 100) + `"}`, 413, "invalid_request_error", "request_too_large", "", "larger than 64 bytes"},
		{"saturated", "POST", busyTS.URL + "/v1/chat/completions", chat + `}`, 429, "rate_limit_error", "engine_saturated", "", "retry later"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, c.url, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, raw)
			}
			if c.status == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
				t.Errorf("429 without Retry-After")
			}
			var body struct {
				Error map[string]any `json:"error"`
			}
			if err := json.Unmarshal(raw, &body); err != nil || body.Error == nil {
				t.Fatalf("body %s is not {\"error\": {...}}", raw)
			}
			for _, k := range []string{"message", "type", "param", "code"} {
				if _, ok := body.Error[k]; !ok {
					t.Errorf("error lacks %q: %s", k, raw)
				}
			}
			if body.Error["type"] != c.typ || !strings.Contains(body.Error["message"].(string), c.msg) {
				t.Errorf("error %s, want type %s and message containing %q", raw, c.typ, c.msg)
			}
			if got, _ := body.Error["code"].(string); got != c.code {
				t.Errorf("code %q, want %q", got, c.code)
			}
			if got, _ := body.Error["param"].(string); got != c.param {
				t.Errorf("param %q, want %q", got, c.param)
			}
			if c.status == 405 && resp.Header.Get("Allow") != "POST" {
				t.Errorf("405 without Allow: POST")
			}
		})
	}
}

// stubEngine lets tests reach states a healthy engine rarely shows.
type stubEngine struct {
	waiting   int
	submitted chan context.Context
}

func (s stubEngine) Submit(ctx context.Context, _ engine.Request) (<-chan live.Event, error) {
	ch := make(chan live.Event)
	if s.submitted != nil {
		s.submitted <- ctx
	}
	go func() { <-ctx.Done(); close(ch) }()
	return ch, nil
}
func (s stubEngine) Stats() engine.Stats   { return engine.Stats{Waiting: s.waiting} }
func (s stubEngine) Config() engine.Config { return engine.DefaultConfig() }

func TestClientDisconnectCancelsEngineRequest(t *testing.T) {
	stub := stubEngine{submitted: make(chan context.Context, 1)}
	srv, _ := New(Config{Engine: stub, ModelName: testModel})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/chat/completions",
		strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}()
	engineCtx := <-stub.submitted
	cancel()
	select {
	case <-engineCtx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("client went away but the engine request was not cancelled")
	}
}

func TestModelsAndEngineCounters(t *testing.T) {
	ts, eng := newLive(t)
	resp := post(t, ts.URL+"/v1/completions", `{"prompt":"Why does batching pay?","max_tokens":12,"ignore_eos":true}`)
	var tc textCompletion
	if err := json.NewDecoder(resp.Body).Decode(&tc); err != nil {
		t.Fatal(err)
	}
	if tc.Usage.CompletionTokens != 12 || *tc.Choices[0].FinishReason != "length" {
		t.Fatalf("ignore_eos completion: usage %+v finish %s", tc.Usage, *tc.Choices[0].FinishReason)
	}
	mr, err := http.Get(ts.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	var ml modelList
	_ = json.NewDecoder(mr.Body).Decode(&ml)
	mr.Body.Close()
	if len(ml.Data) != 1 || ml.Data[0].ID != testModel || ml.Data[0].MaxModelLen != 131072 {
		t.Fatalf("models %+v", ml)
	}
	// The serving metrics live in package servemetrics; this handler
	// no longer answers /metrics.
	if resp, _ := http.Get(ts.URL + "/metrics"); resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("/metrics on the API handler answered %v, want 404", resp)
	} else {
		resp.Body.Close()
	}
	st := eng.Stats()
	if st.GenerationTokens < 12 || st.PromptTokens < int64(textmodel.Count("Why does batching pay?")) {
		t.Errorf("engine counters %+v", st)
	}
}

func chatText(t *testing.T, url, extra string) (string, string, int) {
	t.Helper()
	resp := post(t, url+"/v1/chat/completions", `{"messages":[{"role":"system","content":"Batching shares one weight read across many sequences. Continuous batching admits requests at token boundaries. Static batching waits for the whole batch."},{"role":"user","content":"How does continuous batching work?"}]`+extra+`}`)
	var c chatCompletion
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) != 1 {
		t.Fatalf("decode: %v", err)
	}
	return c.Choices[0].Message.Content, c.Choices[0].FinishReason, c.Usage.CompletionTokens
}

func TestSamplingParams(t *testing.T) {
	ts, _ := newLive(t)
	greedy, finish, _ := chatText(t, ts.URL, `,"temperature":0`)
	if greedy == "" || finish != "stop" {
		t.Fatalf("greedy answer %q finish %s", greedy, finish)
	}
	a, _, _ := chatText(t, ts.URL, `,"temperature":1,"seed":7`)
	b, _, _ := chatText(t, ts.URL, `,"temperature":1,"seed":7`)
	if a != b {
		t.Fatalf("same seed, different answers:\n%q\n%q", a, b)
	}
	words := strings.Fields(greedy)
	stop := words[len(words)/2]
	cut, finish, _ := chatText(t, ts.URL, `,"temperature":0,"stop":[`+strconvQuote(stop)+`]`)
	if strings.Contains(cut, stop) || !strings.HasPrefix(greedy, cut) || finish != "stop" {
		t.Fatalf("stop %q: got %q (%s) from %q", stop, cut, finish, greedy)
	}
	_, finish, n := chatText(t, ts.URL, `,"temperature":0,"max_completion_tokens":5`)
	if n != 5 || finish != "length" {
		t.Fatalf("max_completion_tokens 5: %d tokens, finish %s", n, finish)
	}
	_, _, n = chatText(t, ts.URL, `,"temperature":0,"min_tokens":300,"max_tokens":400`)
	if n < 300 {
		t.Fatalf("min_tokens 300: %d tokens", n)
	}
	_, finish, n = chatText(t, ts.URL, `,"max_tokens":77,"ignore_eos":true`)
	if n != 77 || finish != "length" {
		t.Fatalf("ignore_eos: %d tokens, finish %s", n, finish)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
