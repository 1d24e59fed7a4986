package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/web"
)

func TestServeUpstreamFlags(t *testing.T) {
	env := map[string]string{"LATENCYLAB_UPSTREAM_URL": "http://gpu:8000/v1", "LATENCYLAB_UPSTREAM_MODEL": "m-env"}
	f, err := parseServeFlags(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil || f.UpstreamURL != "http://gpu:8000/v1" || f.UpstreamModel != "m-env" {
		t.Fatalf("env: %+v %v", f, err)
	}
	f, err = parseServeFlags([]string{"--upstream-url", "http://other:9000/v1", "--upstream-model", "m"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || f.UpstreamURL != "http://other:9000/v1" || f.UpstreamModel != "m" {
		t.Fatalf("flags win: %+v %v", f, err)
	}
	for _, bad := range []string{"gpu:8000", "ftp://gpu/v1", "http://"} {
		if _, err := parseServeFlags([]string{"--upstream-url", bad}, func(string) string { return "" }, io.Discard); err == nil || !strings.Contains(err.Error(), "--upstream-url") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

// The chat answers through an upstream OpenAI-compatible server (this
// app's own API over a live engine) whose model it discovers.
func TestChatThroughUpstreamServer(t *testing.T) {
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	api, err := newAPI(eng)
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(api)
	defer up.Close()

	chat, closeChat, err := newChatBackend(context.Background(), up.URL+"/v1/", "", nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer closeChat()
	if len(chat.Tiers) != 1 || chat.Tiers[0].Model != eng.Config().Model.Name || !strings.Contains(chat.Label, up.URL) {
		t.Fatalf("backend: %+v", chat)
	}
	srv, err := web.New(web.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(t.TempDir(), "t.db"), Chat: chat,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if resp, err := c.Get(ts.URL + "/chat"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /chat: %v", err)
	} else {
		resp.Body.Close()
	}
	body, _ := json.Marshal(map[string]string{"chatInput": "How long do refunds take?"})
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/chat/send", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(out), `data-status="complete"`) ||
		!strings.Contains(string(out), "business days") || !strings.Contains(string(out), `data-fig="ttft"`) {
		t.Fatalf("status %d:\n%s", resp.StatusCode, out)
	}
	// The answer names the server that wrote it; a tier and a price
	// describe the bundled tiers and would be false here.
	if want := up.URL + "/v1 (" + eng.Config().Model.Name + ")"; chat.Server != want || !strings.Contains(string(out), want) {
		t.Errorf("backend server %q, want %q shown under the answer", chat.Server, want)
	}
	for _, fig := range []string{`data-fig="tier"`, `data-fig="cost"`} {
		if strings.Contains(string(out), fig) {
			t.Errorf("an upstream answer shows %s", fig)
		}
	}
	if !strings.Contains(string(out), `data-fig="server"`) {
		t.Error("an upstream answer does not name its server")
	}
}
