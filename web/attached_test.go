package web

import (
	"html"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// With a server of the learner's own attached, the home page and /labs
// say so in one line with its address and model, and what runs on it;
// without one they say nothing.
func TestAttachedServerLine(t *testing.T) {
	const label = "the server at http://127.0.0.1:8766/v1 (qwen3:8b)"
	for _, c := range []struct {
		name     string
		upstream *labs.EngineChoice
		chat     *ChatBackend
		want     string // "" for no line
	}{
		{"bundled only", nil, nil, ""},
		{"labs and chat", &labs.EngineChoice{Label: label}, &ChatBackend{Label: "x", Server: "http://127.0.0.1:8766/v1 (qwen3:8b)"},
			"Attached: " + label + ". Labs with an Engine setting can run on it beside the bundled engine, and the chat answers from it."},
		{"labs only", &labs.EngineChoice{Label: label}, nil,
			"Attached: " + label + ". Labs with an Engine setting can run on it beside the bundled engine."},
		{"chat only", nil, &ChatBackend{Label: "x", Server: "http://127.0.0.1:8766/v1 (qwen3:8b)"},
			"Attached: " + label + ". The chat answers from it; the labs run on the bundled engine."},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTestServer(t, func(cfg *Config) { cfg.Upstream, cfg.Chat = c.upstream, c.chat })
			ts := startHTTP(t, s)
			for _, path := range []string{"/", "/labs"} {
				_, body := get(t, client(t), ts.URL+path)
				page := html.UnescapeString(body)
				has := strings.Contains(page, `id="attached-server"`)
				if has != (c.want != "") || c.want != "" && !strings.Contains(page, `id="attached-server">`+c.want+"</p>") {
					i := strings.Index(page, `id="attached-server"`)
					t.Errorf("%s: attached line present %v (at %d), want %q", path, has, i, c.want)
				}
			}
		})
	}
}
