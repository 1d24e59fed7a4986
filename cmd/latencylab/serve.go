package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web"
	"github.com/latencylab/latencylab/web/store"
)

// serveFlags are the serve command's settings.
type serveFlags struct {
	Addr     string
	DB       string
	Hardware string
	Model    string
	// UpstreamURL, when set, has the chat answered by that OpenAI-compatible
	// server instead of the bundled engine.
	UpstreamURL   string
	UpstreamModel string
	// Upstream says what that server is, so the labs' bundled engine can
	// model it beside it.
	Upstream upstreamFlags
	// ModerateAPI runs /v1 answers through output moderation, so unsafe
	// answers end with finish_reason "content_filter". Off by default:
	// the moderation window delays the first chunk, and latencylab bench
	// against /v1 should measure the engine the way sim models it.
	ModerateAPI bool

	// Limits: who may post, trusted proxies, concurrent runs.
	Limits limitFlags
	// API says who may call /v1, how many at once, and on which engine.
	API apiFlags
	// Workshops sizes cohort rooms and their load dial.
	Workshops workshopFlags
	// Grader grades open practice answers with a model, when set.
	Grader graderFlags
}

// parseServeFlags reads flags with env fallbacks (flags win). Bad input is
// returned as one line for the caller to print with exit code 2; -h prints
// the command's help to helpOut and returns flag.ErrHelp.
func parseServeFlags(args []string, getenv func(string) string, helpOut io.Writer) (serveFlags, error) {
	f := serveFlags{
		Addr:     envOr(getenv, "LATENCYLAB_ADDR", "127.0.0.1:8080"),
		DB:       envOr(getenv, "LATENCYLAB_DB", "latencylab.db"),
		Hardware: envOr(getenv, "LATENCYLAB_HARDWARE", "h100-sxm"),
		Model:    envOr(getenv, "LATENCYLAB_MODEL", "llama-3.1-8b"),

		UpstreamURL:   getenv("LATENCYLAB_UPSTREAM_URL"),
		UpstreamModel: getenv("LATENCYLAB_UPSTREAM_MODEL"),
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&f.Addr, "addr", f.Addr, "listen address HOST:PORT (env LATENCYLAB_ADDR)")
	fs.StringVar(&f.DB, "db", f.DB, "SQLite database file for progress and runs (env LATENCYLAB_DB)")
	fs.StringVar(&f.Hardware, "hardware", f.Hardware, "default GPU profile for labs: "+strings.Join(engine.HardwareNames(), ", ")+" (env LATENCYLAB_HARDWARE)")
	fs.StringVar(&f.Model, "model", f.Model, "default model profile for labs: "+strings.Join(engine.ModelNames(), ", ")+" (env LATENCYLAB_MODEL)")
	fs.StringVar(&f.UpstreamURL, "upstream-url", f.UpstreamURL, "an OpenAI-compatible server (vLLM, SGLang, Ollama, a fleet's gateway) that answers the chat and that every engine lab can run on beside the bundled engine, e.g. http://127.0.0.1:8000/v1 (env LATENCYLAB_UPSTREAM_URL); default the bundled engine only")
	fs.BoolVar(&f.ModerateAPI, "moderate-api", getenv("LATENCYLAB_MODERATE_API") == "1", "moderate /v1 answers (PII, policy, prompt injection): blocked streams end with finish_reason content_filter (env LATENCYLAB_MODERATE_API=1)")
	fs.StringVar(&f.UpstreamModel, "upstream-model", f.UpstreamModel, "model name on the upstream server (env LATENCYLAB_UPSTREAM_MODEL); default the first it lists")
	f.Upstream.register(fs, getenv)
	checkLimits := addLimitFlags(fs, getenv, &f.Limits)
	checkWorkshops := addWorkshopFlags(fs, getenv, &f.Workshops)
	checkGrader := addGraderFlags(fs, getenv, &f.Grader)
	f.API.register(fs, getenv)
	help, err := parseFlags(fs, args, helpOut)
	if help {
		return f, flag.ErrHelp
	}
	if err != nil {
		return f, err
	}
	if _, _, err := net.SplitHostPort(f.Addr); err != nil {
		return f, fmt.Errorf("--addr %q: want HOST:PORT, such as 127.0.0.1:8080", f.Addr)
	}
	if err := checkLimits(); err != nil {
		return f, err
	}
	if err := checkWorkshops(); err != nil {
		return f, err
	}
	if err := checkGrader(); err != nil {
		return f, err
	}
	if err := f.API.check(); err != nil {
		return f, err
	}
	if _, err := engine.LookupHardware(f.Hardware); err != nil {
		return f, fmt.Errorf("--hardware: %w", err)
	}
	if _, err := engine.LookupModel(f.Model); err != nil {
		return f, fmt.Errorf("--model: %w", err)
	}
	if f.UpstreamURL != "" {
		if err := checkBaseURL(f.UpstreamURL); err != nil {
			return f, fmt.Errorf("--upstream-url: %w", err)
		}
		// The served name is not known yet: check everything else.
		if _, err := f.Upstream.deployment(""); err != nil {
			return f, err
		}
	}
	if _, err := (labs.Profile{Hardware: f.Hardware, Model: f.Model}).Config(); err != nil {
		return f, fmt.Errorf("--hardware/--model: %w", err)
	}
	return f, nil
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// runServe serves the web app until ctx ends (SIGINT/SIGTERM).
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseServeFlags(args, os.Getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %s\n", plainMessage(err))
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	watchMemorySignal(ctx, logger)
	metrics, err := newServingMetrics()
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	engines := metrics.pool("", labs.EnginesConfig{})
	defer engines.Close()
	profile := labs.Profile{Hardware: f.Hardware, Model: f.Model}
	// The pipeline labs read the support desk through their own connection
	// to the same WAL database the web server opens.
	desk, err := openSupportDesk(ctx, f.DB)
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	defer desk.Close()
	catalog, err := newCatalog(catalogDeps{Profile: profile, Engines: engines, Store: desk})
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	var upClient *upstream.Client
	if f.UpstreamURL != "" {
		upClient = upstreamClient(f.UpstreamURL)
		f.UpstreamModel = upstreamModel(ctx, upClient, f.UpstreamModel, stderr)
	}
	choice, err := newEngineChoice(f, upClient, f.UpstreamModel)
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %s\n", plainMessage(err))
		return 2
	}
	if choice != nil {
		defer choice.Close()
	}
	chat, closeChat, err := newChatBackend(ctx, f.UpstreamURL, f.UpstreamModel, metrics.Metrics, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	defer closeChat()
	// /v1 runs on an engine of its own unless --api-shares-lab-engine, so
	// outside load cannot slow learners' runs by default.
	api, closeAPI, err := startAPI(f.API, f.ModerateAPI, metrics, engines, profile)
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	defer closeAPI()
	cfg := web.Config{
		Chat:     chat,
		Addr:     f.Addr,
		DBPath:   f.DB,
		Catalog:  catalog,
		API:      api,
		Metrics:  metrics.Handler(),
		Hardware: f.Hardware,
		Model:    f.Model,
		Logger:   logger,
		Limits:   f.Limits.limits(),
		Ready: func(url string) {
			fmt.Fprintf(stdout, "Latency Lab is running at %s (press Ctrl+C to stop)\n", url)
		},
	}
	cfg.Workshops = f.Workshops.config()
	cfg.RoomObserver = metrics.observer("room: ")
	cfg.Grader = f.Grader.config(ctx, stderr)
	cfg.Upstream = choice
	if err := cfg.Validate(); err != nil {
		// Validate lists every problem, one a line; the CLI says it in one.
		fmt.Fprintf(stderr, "latencylab serve: %s\n", plainMessage(err))
		return 2
	}
	srv, err := web.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	if err := srv.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "latencylab serve: %v\n", err)
		return 1
	}
	return 0
}

// openSupportDesk opens the database and seeds the knowledge base and demo
// orders (a no-op when they are current).
func openSupportDesk(ctx context.Context, path string) (*store.Store, error) {
	st, err := store.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := st.SeedSupportDesk(ctx); err != nil {
		st.Close()
		return nil, fmt.Errorf("seed support desk: %w", err)
	}
	return st, nil
}
