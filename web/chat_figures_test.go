package web

import (
	"slices"
	"testing"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// An answer from the bundled tiers shows its tier and price; one from an
// upstream server names the server in their place (its tier is the
// pipeline's default and its price is zero, both meaningless there),
// after a reload too, since the server is saved with the figures.
func TestChatFiguresNameTheServer(t *testing.T) {
	cost := 0.0
	ttft := 402.0
	for _, c := range []struct {
		name     string
		fig      chatFigures
		wantKeys []string
		wantLast string // the last chip's value
	}{
		{"bundled tier", chatFigures{FirstTokenMs: &ttft, Tier: "medium", Cost: &cost}, []string{"ttft", "tier", "cost"}, "$0"},
		{"upstream server", chatFigures{FirstTokenMs: &ttft, Tier: "medium", Cost: &cost, Server: "http://127.0.0.1:8766/v1 (qwen3:8b)"},
			[]string{"ttft", "server"}, "http://127.0.0.1:8766/v1 (qwen3:8b)"},
		{"upstream answer from the cache", chatFigures{Tier: "medium", Cached: true, Server: "http://gpu:8000/v1 (m)"},
			[]string{"server"}, "http://gpu:8000/v1 (m) (cache)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			figs := c.fig.view()
			var keys []string
			for _, f := range figs {
				keys = append(keys, f.Key)
			}
			if !slices.Equal(keys, c.wantKeys) {
				t.Fatalf("chips %q, want %q", keys, c.wantKeys)
			}
			if got := figs[len(figs)-1].Value; got != c.wantLast {
				t.Errorf("last chip %q, want %q", got, c.wantLast)
			}
		})
	}
}

// The live status names the server while the first token is awaited.
func TestStageLabelNamesTheServer(t *testing.T) {
	for _, c := range []struct{ tier, server, want string }{
		{"medium", "", "Waiting for the first token from the medium model…"},
		{"medium", "http://gpu:8000/v1 (m)", "Waiting for the first token from http://gpu:8000/v1 (m)…"},
	} {
		if got := stageLabel(pipeline.Span{Stage: pipeline.StageFirstToken, Tier: c.tier}, c.server); got != c.want {
			t.Errorf("stageLabel(%q, %q) = %q, want %q", c.tier, c.server, got, c.want)
		}
	}
}
