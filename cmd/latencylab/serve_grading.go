package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/web"
)

// graderFlags point optional model grading of open practice answers at an
// OpenAI-compatible server; without a URL there is no model grading.
type graderFlags struct {
	URL, Model, APIKey string
	Timeout            time.Duration
}

// addGraderFlags registers the grader flags with env fallbacks (flags
// win); the returned check reports a bad value after parsing.
func addGraderFlags(fs *flag.FlagSet, getenv func(string) string, f *graderFlags) (check func() error) {
	f.URL, f.Model, f.APIKey = getenv("LATENCYLAB_GRADER_URL"), getenv("LATENCYLAB_GRADER_MODEL"), getenv("LATENCYLAB_GRADER_API_KEY")
	var envErr error
	if v := getenv("LATENCYLAB_GRADER_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			envErr = fmt.Errorf("LATENCYLAB_GRADER_TIMEOUT=%q: want a duration such as 20s", v)
		}
		f.Timeout = d
	}
	fs.StringVar(&f.URL, "grader-url", f.URL, "grade open practice answers with this OpenAI-compatible server too, e.g. http://127.0.0.1:8000/v1 (env LATENCYLAB_GRADER_URL); default none: no model grading")
	fs.StringVar(&f.Model, "grader-model", f.Model, "model name on the grader server (env LATENCYLAB_GRADER_MODEL); default the first it lists")
	fs.DurationVar(&f.Timeout, "grader-timeout", f.Timeout, "longest wait for one grading, under the 30 s write timeout (env LATENCYLAB_GRADER_TIMEOUT); 0: 20s")
	// The key is read from the environment only, so it never shows in ps.
	return func() error {
		if envErr != nil {
			return envErr
		}
		if f.URL == "" {
			return nil
		}
		if err := checkBaseURL(f.URL); err != nil {
			return fmt.Errorf("--grader-url: %w", err)
		}
		if f.Timeout < 0 {
			return fmt.Errorf("--grader-timeout %v: want more than 0", f.Timeout)
		}
		return nil
	}
}

// config turns the flags into the web server's grader settings, asking the
// server for its model when none is named (a server that is down gets
// "default", as the chat does, and the page says so when a grading fails).
func (f graderFlags) config(ctx context.Context, stderr io.Writer) web.GraderConfig {
	if f.URL == "" {
		return web.GraderConfig{}
	}
	cfg := web.GraderConfig{URL: strings.TrimRight(f.URL, "/"), Model: f.Model, APIKey: f.APIKey, Timeout: f.Timeout}
	if cfg.Model == "" {
		mctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		m, err := firstModel(mctx, &upstream.Client{BaseURL: cfg.URL, APIKey: f.APIKey, HTTP: &http.Client{}})
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "latencylab serve: grader %s: %v; grading will ask for model \"default\" (set --grader-model)\n", cfg.URL, err)
			m = "default"
		}
		cfg.Model = m
	}
	return cfg
}
