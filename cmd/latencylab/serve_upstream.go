package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/labs"
)

// upstreamFlags say what the --upstream-url server is, so the bundled
// engine can model the same deployment beside it in every engine lab.
type upstreamFlags struct {
	Hardware     string // GPU profile name
	ModelProfile string // model profile name, or a Hugging Face config.json
	TP           int
	Precision    string
}

func (f *upstreamFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.Hardware, "upstream-hardware", envOr(getenv, "LATENCYLAB_UPSTREAM_HARDWARE", "h100-sxm"),
		"GPU the upstream server runs on, for the bundled engine that models it: "+strings.Join(engine.HardwareNames(), ", ")+" (env LATENCYLAB_UPSTREAM_HARDWARE)")
	fs.StringVar(&f.ModelProfile, "upstream-model-profile", getenv("LATENCYLAB_UPSTREAM_MODEL_PROFILE"),
		"the upstream model's shape: a profile ("+strings.Join(engine.ModelNames(), ", ")+") or a Hugging Face config.json path; default the served model's name when it is a profile, else llama-3.1-8b (env LATENCYLAB_UPSTREAM_MODEL_PROFILE)")
	fs.IntVar(&f.TP, "upstream-tp", 1, "tensor parallelism of the upstream server: 1, 2, 4 or 8")
	fs.StringVar(&f.Precision, "upstream-precision", "bf16", "weight precision of the upstream server: bf16, fp8, int4")
}

// deployment is the engine configuration the bundled engine models the
// server with; served is the model name the server answers to.
func (f *upstreamFlags) deployment(served string) (engine.Config, error) {
	cfg := engine.DefaultConfig()
	hw, err := engine.LookupHardware(f.Hardware)
	if err != nil {
		return cfg, fmt.Errorf("--upstream-hardware: %w", err)
	}
	cfg.Hardware = hw
	switch name := f.ModelProfile; {
	case strings.HasSuffix(name, ".json") || strings.ContainsRune(name, os.PathSeparator):
		if cfg.Model, err = loadFile(name, engine.LoadModelConfig); err != nil {
			return cfg, fmt.Errorf("--upstream-model-profile: %w", err)
		}
	case name != "":
		if cfg.Model, err = engine.LookupModel(name); err != nil {
			return cfg, fmt.Errorf("--upstream-model-profile: %w", err)
		}
	default:
		cfg.Model, _ = engine.LookupModel("llama-3.1-8b")
		if m, err := engine.LookupModel(served); err == nil {
			cfg.Model = m
		}
	}
	cfg.TP, cfg.Precision = f.TP, engine.Precision(strings.ToLower(f.Precision))
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("--upstream-*: %w", err)
	}
	return cfg, nil
}

// upstreamModel is --upstream-model, or the first model the server lists,
// or "default" when it cannot be asked (the labs and the chat then say
// what went wrong when a run asks).
func upstreamModel(ctx context.Context, c *upstream.Client, model string, stderr io.Writer) string {
	if model != "" {
		return model
	}
	mctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	m, err := firstModel(mctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: upstream %s: %v; asking for model \"default\" (set --upstream-model)\n", c.BaseURL, err)
		return "default"
	}
	return m
}

// newEngineChoice lets the engine labs run on the upstream server beside
// the bundled engine modelling it; nil without --upstream-url.
func newEngineChoice(f serveFlags, c *upstream.Client, model string) (*labs.EngineChoice, error) {
	if f.UpstreamURL == "" {
		return nil, nil
	}
	dep, err := f.Upstream.deployment(model)
	if err != nil {
		return nil, err
	}
	choice, err := labs.NewEngineChoice(labs.UpstreamConfig{Client: c, Model: model, Deployment: dep}, labs.EnginesConfig{})
	if err != nil {
		return nil, fmt.Errorf("engine choice: %w", err)
	}
	return choice, nil
}

// upstreamClient is the one client the chat and the labs share. It asks
// for running token counts so a chunk that carries several tokens (a
// vLLM or SGLang chunk can) shows as that many tokens.
func upstreamClient(url string) *upstream.Client {
	return &upstream.Client{BaseURL: strings.TrimRight(url, "/"), HTTP: &http.Client{}, RunningCounts: true}
}
