package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/openaiapi"
	"github.com/latencylab/latencylab/labs"
)

// apiFlags are serve's settings for the OpenAI-compatible /v1 surface:
// who may call it, how many at once, and which engine it runs on.
type apiFlags struct {
	// Key, when set, is the bearer token /v1 requires.
	Key string
	// Origins are extra browser origins allowed to call /v1 (the server's
	// own pages always may).
	Origins []string
	// MaxConcurrent caps /v1 requests in flight.
	MaxConcurrent int
	// SharesLabEngine serves /v1 from the labs' shared engine, so outside
	// load shows in learners' runs (a workshop demonstration); by default
	// /v1 has an engine of its own and cannot slow the labs.
	SharesLabEngine bool

	origins string
	envErr  error
}

// register adds the /v1 flags to fs, with env fallbacks read through
// getenv (flags win). check validates them after fs.Parse.
func (a *apiFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	a.MaxConcurrent = openaiapi.DefaultMaxConcurrent
	if s := getenv("LATENCYLAB_API_MAX_CONCURRENCY"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			a.envErr = fmt.Errorf("LATENCYLAB_API_MAX_CONCURRENCY is %q: want a whole number of at least 1", s)
		}
		a.MaxConcurrent = n
	}
	fs.StringVar(&a.Key, "api-key", getenv("LATENCYLAB_API_KEY"),
		"require this bearer token on /v1 (Authorization: Bearer KEY) (env LATENCYLAB_API_KEY); default none: /v1 is open to whoever reaches the port")
	fs.StringVar(&a.origins, "api-origins", getenv("LATENCYLAB_API_ORIGINS"),
		"comma-separated browser origins (https://host[:port]) whose pages may call /v1 besides this server's own (env LATENCYLAB_API_ORIGINS)")
	fs.IntVar(&a.MaxConcurrent, "api-max-concurrency", a.MaxConcurrent,
		"most /v1 requests served at once; more get 429 with Retry-After (env LATENCYLAB_API_MAX_CONCURRENCY)")
	fs.BoolVar(&a.SharesLabEngine, "api-shares-lab-engine", getenv("LATENCYLAB_API_SHARES_LAB_ENGINE") == "1",
		"serve /v1 from the labs' shared engine, so outside load shows in learners' runs (env LATENCYLAB_API_SHARES_LAB_ENGINE=1); default a separate engine")
}

// check validates the parsed values, naming the flag at fault.
func (a *apiFlags) check() error {
	if a.envErr != nil {
		return a.envErr
	}
	if a.MaxConcurrent < 1 {
		return fmt.Errorf("--api-max-concurrency is %d: want at least 1", a.MaxConcurrent)
	}
	a.Origins = nil
	for _, o := range strings.Split(a.origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			a.Origins = append(a.Origins, o)
		}
	}
	if err := openaiapi.ValidateOrigins(a.Origins); err != nil {
		return fmt.Errorf("--api-origins: %w", err)
	}
	return nil
}

// startAPI builds the /v1 surface on its own engine for profile (started
// through metrics, so /metrics counts it), or on the labs' engine when
// configured to share. The returned close stops the API's own engine, if it
// started one.
func startAPI(a apiFlags, moderate bool, metrics *servingMetrics, labEngines *labs.Engines, profile labs.Profile) (*openaiapi.Server, func(), error) {
	pool := labEngines
	closePool := func() {}
	if !a.SharesLabEngine {
		// A pool of its own: a flood on /v1 queues on this engine, not on
		// the one learners' lab runs batch on.
		pool = metrics.pool("api: ", labs.EnginesConfig{})
		closePool = func() { _ = pool.Close() }
	}
	eng, err := pool.Get(profile)
	if err != nil {
		closePool()
		return nil, nil, err
	}
	api, err := buildAPI(eng, moderate, a)
	if err != nil {
		closePool()
		return nil, nil, err
	}
	return api, closePool, nil
}

// newAPI builds the OpenAI-compatible surface and /metrics over a live
// engine, unmoderated and open, for bench to target in tests: what it
// measures is the engine alone.
func newAPI(eng *live.Engine) (*openaiapi.Server, error) {
	return buildAPI(eng, false, apiFlags{})
}

// buildAPI builds the surface over eng. With moderate, every answer passes
// the API's moderation stage, so personal data is never streamed and a
// blocked answer ends with finish_reason "content_filter".
func buildAPI(eng *live.Engine, moderate bool, a apiFlags) (*openaiapi.Server, error) {
	cfg := openaiapi.Config{Engine: eng, ModelName: eng.Config().Model.Name,
		APIKey: a.Key, AllowedOrigins: a.Origins, MaxConcurrent: a.MaxConcurrent}
	if moderate {
		st, err := openaiapi.DefaultModeration()
		if err != nil {
			return nil, fmt.Errorf("openai api: %w", err)
		}
		cfg.Moderation = st
	}
	api, err := openaiapi.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("openai api: %w", err)
	}
	return api, nil
}
