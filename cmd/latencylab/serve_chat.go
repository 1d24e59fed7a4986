package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/servemetrics"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/web"
)

// newChatBackend starts the support-desk chat's model tiers: the bundled
// engines (small, medium, large), or, with upstreamURL, one tier served by
// that OpenAI-compatible server. The returned func stops the engines.
// An upstream that is down at start-up is not an error: the chat says so
// in the page when a question is asked. With met, the bundled engines
// report into the serving metrics as source "chat".
func newChatBackend(ctx context.Context, upstreamURL, upstreamModel string, met *servemetrics.Metrics, stderr io.Writer) (*web.ChatBackend, func() error, error) {
	if upstreamURL == "" {
		specs := meterChatTiers(met, pipeline.DefaultTierSpecs())
		tiers, closeAll, err := pipeline.StartEngineTiers(specs, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("chat tiers: %w", err)
		}
		trackChatTiers(met, specs, tiers)
		return &web.ChatBackend{Tiers: tiers,
			Label: "the bundled engine (medium tier llama-3.1-8b, small tier llama-3.2-3b as fallback, on H100)"}, closeAll, nil
	}
	c := &upstream.Client{BaseURL: strings.TrimRight(upstreamURL, "/"), HTTP: &http.Client{}}
	if upstreamModel == "" {
		mctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		m, err := firstModel(mctx, c)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "latencylab serve: upstream %s: %v; the chat will ask for model \"default\" (set --upstream-model)\n", c.BaseURL, err)
			m = "default"
		}
		upstreamModel = m
	}
	cfg := pipeline.DefaultConfig()
	cfg.Gateway.Fallback = nil // one server, nothing to fall back to
	return &web.ChatBackend{
		Tiers:    []pipeline.Tier{{Name: cfg.Gateway.Tier, Provider: pipeline.NewUpstreamProvider(c), Model: upstreamModel}},
		Pipeline: &cfg,
		Label:    "the upstream server " + c.BaseURL + " (model " + upstreamModel + ")",
		Server:   c.BaseURL + " (" + upstreamModel + ")",
	}, func() error { return nil }, nil
}
