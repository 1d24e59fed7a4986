package openaiapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
)

// goInternals matches what no client may read in an error: Go type,
// struct and package names.
var goInternals = regexp.MustCompile(`rawChat|rawCommon|rawCompletion|rawMessage|\bstruct\b|Go (value|struct)|\bint64\b|\bfloat64\b|wire\.|openaiapi\.|json: |goroutine`)

// apiCall is one request in a table.
type apiCall struct {
	name, method, path, body string
	header                   map[string]string
	status                   int
	code, param, says        string
}

// checkCall sends c and asserts the status and, for errors, OpenAI's
// exact error shape with a message free of Go internals.
func checkCall(t *testing.T, base string, c apiCall) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != c.status {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, raw)
	}
	if c.status < 400 {
		return resp
	}
	var body map[string]map[string]any
	if err := json.Unmarshal(raw, &body); err != nil || len(body) != 1 || body["error"] == nil {
		t.Fatalf("body %s is not {\"error\": {...}}", raw)
	}
	e := body["error"]
	for _, k := range []string{"message", "type", "param", "code"} {
		if _, ok := e[k]; !ok {
			t.Fatalf("error %s lacks %q", raw, k)
		}
	}
	msg, _ := e["message"].(string)
	if !strings.Contains(msg, c.says) {
		t.Errorf("message %q does not say %q", msg, c.says)
	}
	if goInternals.MatchString(msg) {
		t.Errorf("message %q names Go internals", msg)
	}
	if code, _ := e["code"].(string); code != c.code {
		t.Errorf("code %q, want %q", code, c.code)
	}
	if param, _ := e["param"].(string); param != c.param {
		t.Errorf("param %q, want %q", param, c.param)
	}
	return resp
}

func jsonHeader(extra ...string) map[string]string {
	h := map[string]string{"Content-Type": "application/json"}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return h
}

const okChat = `{"messages":[{"role":"user","content":"hi"}],"max_tokens":3}`

// Who may call /v1: JSON bodies only, no pages from other sites, the
// bearer key when one is set.
func TestAccessRules(t *testing.T) {
	eng := fakeClockEngine(t)
	open := httptest.NewServer(mustServer(t, Config{Engine: eng, ModelName: testModel, AllowedOrigins: []string{"https://class.example.org"}}))
	defer open.Close()
	keyed := httptest.NewServer(mustServer(t, Config{Engine: eng, ModelName: testModel, APIKey: "sk-class-42", AllowedOrigins: []string{"https://class.example.org"}}))
	defer keyed.Close()
	own := open.URL // a page served by this server carries its own origin
	cases := []struct {
		base string
		apiCall
	}{
		{open.URL, apiCall{"json", "POST", "/v1/chat/completions", okChat, jsonHeader(), 200, "", "", ""}},
		{open.URL, apiCall{"json utf-8", "POST", "/v1/chat/completions", okChat, jsonHeader("Content-Type", "application/json; charset=UTF-8"), 200, "", "", ""}},
		{open.URL, apiCall{"text/plain", "POST", "/v1/chat/completions", okChat, map[string]string{"Content-Type": "text/plain"}, 415, "unsupported_media_type", "", "application/json"}},
		{open.URL, apiCall{"form", "POST", "/v1/completions", `prompt=x`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type", "", "application/json"}},
		{open.URL, apiCall{"no content type", "POST", "/v1/chat/completions", okChat, nil, 415, "unsupported_media_type", "", "none"}},
		{open.URL, apiCall{"json latin1", "POST", "/v1/chat/completions", okChat, jsonHeader("Content-Type", "application/json; charset=latin1"), 415, "unsupported_media_type", "", "application/json"}},
		{open.URL, apiCall{"other site", "POST", "/v1/chat/completions", okChat, jsonHeader("Origin", "https://evil.example"), 403, "cross_origin_forbidden", "", "evil.example"}},
		{open.URL, apiCall{"origin null", "POST", "/v1/chat/completions", okChat, jsonHeader("Origin", "null"), 403, "cross_origin_forbidden", "", "null"}},
		{open.URL, apiCall{"cross-site fetch", "GET", "/v1/models", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross_origin_forbidden", "", "cross-site"}},
		{open.URL, apiCall{"other site, models", "GET", "/v1/models", "", map[string]string{"Origin": "http://evil.example"}, 403, "cross_origin_forbidden", "", "evil.example"}},
		{open.URL, apiCall{"own page", "POST", "/v1/chat/completions", okChat, jsonHeader("Origin", own, "Sec-Fetch-Site", "same-origin"), 200, "", "", ""}},
		{open.URL, apiCall{"allowed origin", "POST", "/v1/chat/completions", okChat, jsonHeader("Origin", "https://class.example.org", "Sec-Fetch-Site", "cross-site"), 200, "", "", ""}},
		{open.URL, apiCall{"preflight, allowed origin", "OPTIONS", "/v1/chat/completions", "", map[string]string{"Origin": "https://class.example.org", "Access-Control-Request-Method": "POST"}, 204, "", "", ""}},
		{keyed.URL, apiCall{"preflight needs no key", "OPTIONS", "/v1/chat/completions", "", map[string]string{"Origin": "https://class.example.org", "Access-Control-Request-Method": "POST"}, 204, "", "", ""}},
		{open.URL, apiCall{"preflight, other site", "OPTIONS", "/v1/chat/completions", "", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, 403, "cross_origin_forbidden", "", "evil.example"}},
		{open.URL, apiCall{"typed URL", "GET", "/v1/models", "", map[string]string{"Sec-Fetch-Site": "none"}, 200, "", "", ""}},
		{keyed.URL, apiCall{"no key", "POST", "/v1/chat/completions", okChat, jsonHeader(), 401, "invalid_api_key", "", "didn't provide an API key"}},
		{keyed.URL, apiCall{"wrong key", "POST", "/v1/chat/completions", okChat, jsonHeader("Authorization", "Bearer sk-class-41"), 401, "invalid_api_key", "", "Incorrect API key"}},
		{keyed.URL, apiCall{"key as prefix", "POST", "/v1/chat/completions", okChat, jsonHeader("Authorization", "Bearer sk-class-42x"), 401, "invalid_api_key", "", "Incorrect API key"}},
		{keyed.URL, apiCall{"basic auth", "GET", "/v1/models", "", map[string]string{"Authorization": "Basic c2stY2xhc3MtNDI="}, 401, "invalid_api_key", "", "didn't provide"}},
		{keyed.URL, apiCall{"models without key", "GET", "/v1/models", "", nil, 401, "invalid_api_key", "", "API key"}},
		{keyed.URL, apiCall{"unknown route without key", "GET", "/v1/files", "", nil, 401, "invalid_api_key", "", "API key"}},
		{keyed.URL, apiCall{"right key", "POST", "/v1/chat/completions", okChat, jsonHeader("Authorization", "Bearer sk-class-42"), 200, "", "", ""}},
		{keyed.URL, apiCall{"models with key", "GET", "/v1/models", "", map[string]string{"Authorization": "Bearer sk-class-42"}, 200, "", "", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := checkCall(t, c.base, c.apiCall)
			if c.status == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without a Bearer WWW-Authenticate challenge")
			}
			// Only an allowed other origin is told it may read the answer.
			wantCORS := c.header["Origin"] == "https://class.example.org"
			if got := resp.Header.Get("Access-Control-Allow-Origin"); (got != "") != wantCORS || (wantCORS && got != c.header["Origin"]) {
				t.Errorf("Access-Control-Allow-Origin %q", got)
			}
			if c.method == "OPTIONS" && c.status == 204 && !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
				t.Errorf("preflight does not allow the Authorization header")
			}
		})
	}
}

// Item 6 of issue 9 through the HTTP surface: each input vLLM refuses is a
// 400 in OpenAI's shape naming the field, never a Go type.
func TestBadInputIs400(t *testing.T) {
	ts, _ := newLive(t)
	chat := func(extra string) string { return `{"messages":[{"role":"user","content":"x"}]` + extra + `}` }
	cases := []apiCall{
		{"content null", "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":null}]}`, nil, 400, "", "messages[0].content", "null"},
		{"invalid UTF-8", "POST", "/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"\xff\"}]}", nil, 400, "", "", "UTF-8"},
		{"lone surrogate", "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"\ud800"}]}`, nil, 400, "", "", "surrogate"},
		{"NUL", "POST", "/v1/completions", `{"prompt":"a\u0000"}`, nil, 400, "", "", "NUL"},
		{"token id 2^40", "POST", "/v1/completions", `{"prompt":[1099511627776]}`, nil, 400, "", "prompt", "want 0..128255"},
		{"best_of", "POST", "/v1/completions", `{"prompt":"x","best_of":2}`, nil, 400, "", "best_of", "one candidate"},
		{"logprobs", "POST", "/v1/completions", `{"prompt":"x","logprobs":1}`, nil, 400, "", "logprobs", "log probabilities"},
		{"chat logprobs", "POST", "/v1/chat/completions", chat(`,"logprobs":true`), nil, 400, "", "logprobs", "log probabilities"},
		{"n", "POST", "/v1/chat/completions", chat(`,"n":4`), nil, 400, "", "n", "n=1"},
		{"max_tokens 2^31", "POST", "/v1/chat/completions", chat(`,"max_tokens":2147483648`), nil, 400, "", "max_tokens", "want 1..131072"},
		{"max_tokens type", "POST", "/v1/chat/completions", chat(`,"max_tokens":"a lot"`), nil, 400, "", "max_tokens", "must be an integer"},
		{"max_tokens over context", "POST", "/v1/chat/completions", chat(`,"max_tokens":200000`), nil, 400, "context_length_exceeded", "messages", "131072"},
		{"body an array", "POST", "/v1/completions", `[1]`, nil, 400, "", "", "JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.header = jsonHeader()
			checkCall(t, ts.URL, c)
		})
	}
}

// A flood from many clients, each with a fresh cookie or none, is held to
// the concurrency cap: exactly MaxConcurrent reach the engine, the rest get
// 429 with Retry-After, and the slots come back when the requests end.
func TestConcurrencyCapHoldsAgainstAFlood(t *testing.T) {
	const limit, flood = 4, 30
	stub := stubEngine{submitted: make(chan context.Context, flood)}
	ts := httptest.NewServer(mustServer(t, Config{Engine: stub, ModelName: testModel, MaxConcurrent: limit}))
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	statuses := make(chan int, flood)
	var wg sync.WaitGroup
	for i := range flood {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/chat/completions", strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
			req.Header.Set("Content-Type", "application/json")
			if i%2 == 0 {
				req.Header.Set("Cookie", fmt.Sprintf("learner=rotating-%d", i))
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return // held requests end when ctx is cancelled
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "1" {
				t.Errorf("429 with Retry-After %q, want 1", resp.Header.Get("Retry-After"))
			}
			statuses <- resp.StatusCode
			_, _ = io.Copy(io.Discard, resp.Body)
		}()
	}
	admitted, refused := 0, 0
	deadline := time.After(30 * time.Second)
	for admitted+refused < flood {
		select {
		case <-stub.submitted:
			admitted++
		case s := <-statuses:
			if s == http.StatusTooManyRequests {
				refused++
			}
		case <-deadline:
			t.Fatalf("after 30 s: %d admitted, %d refused of %d", admitted, refused, flood)
		}
	}
	if admitted != limit || refused != flood-limit {
		t.Fatalf("%d admitted and %d refused, want %d and %d", admitted, refused, limit, flood-limit)
	}
	cancel()
	wg.Wait()
	// The held requests' handlers return after their clients left; then
	// every slot is free again.
	for end := time.Now().Add(10 * time.Second); len(stubSlots(t, ts)) > 0; {
		if time.Now().After(end) {
			t.Fatal("concurrency slots not released after the requests ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stubSlots is the concurrency semaphore of the server behind ts.
func stubSlots(t *testing.T, ts *httptest.Server) chan struct{} {
	t.Helper()
	return ts.Config.Handler.(*Server).gate.slots
}

// fakeClockEngine is a live engine paced by a fake clock, so requests
// finish at CPU speed.
func fakeClockEngine(t *testing.T) *live.Engine {
	t.Helper()
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(1_700_000_000, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	return eng
}

func mustServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConfigValidateAccess(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"defaults", Config{Engine: stubEngine{}, ModelName: "m"}, true},
		{"origin list", Config{Engine: stubEngine{}, ModelName: "m", AllowedOrigins: []string{"https://a.example:8443", "http://b.example"}}, true},
		{"origin with path", Config{Engine: stubEngine{}, ModelName: "m", AllowedOrigins: []string{"https://a.example/app"}}, false},
		{"origin without scheme", Config{Engine: stubEngine{}, ModelName: "m", AllowedOrigins: []string{"a.example"}}, false},
		{"negative cap", Config{Engine: stubEngine{}, ModelName: "m", MaxConcurrent: -1}, false},
	} {
		if err := c.cfg.Validate(); (err == nil) != c.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
