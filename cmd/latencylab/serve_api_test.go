package main

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/openaiapi"
	"github.com/latencylab/latencylab/labs"
)

func TestServeAPIFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want apiFlags
		bad  string
	}{
		{name: "defaults", want: apiFlags{MaxConcurrent: openaiapi.DefaultMaxConcurrent}},
		{name: "env", env: map[string]string{"LATENCYLAB_API_KEY": "sk-env", "LATENCYLAB_API_MAX_CONCURRENCY": "64",
			"LATENCYLAB_API_ORIGINS": "https://a.example, http://b.example:8080", "LATENCYLAB_API_SHARES_LAB_ENGINE": "1"},
			want: apiFlags{Key: "sk-env", MaxConcurrent: 64, Origins: []string{"https://a.example", "http://b.example:8080"}, SharesLabEngine: true}},
		{name: "flags win", args: []string{"--api-key", "sk-flag", "--api-max-concurrency", "8", "--api-shares-lab-engine=false"},
			env:  map[string]string{"LATENCYLAB_API_KEY": "sk-env", "LATENCYLAB_API_MAX_CONCURRENCY": "64", "LATENCYLAB_API_SHARES_LAB_ENGINE": "1"},
			want: apiFlags{Key: "sk-flag", MaxConcurrent: 8}},
		{name: "zero concurrency", args: []string{"--api-max-concurrency", "0"}, bad: "--api-max-concurrency is 0: want at least 1"},
		{name: "bad env concurrency", env: map[string]string{"LATENCYLAB_API_MAX_CONCURRENCY": "lots"}, bad: "LATENCYLAB_API_MAX_CONCURRENCY"},
		{name: "origin with path", args: []string{"--api-origins", "https://a.example/app"}, bad: "--api-origins"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := parseServeFlags(c.args, func(k string) string { return c.env[k] }, io.Discard)
			if c.bad != "" {
				if err == nil || !strings.Contains(err.Error(), c.bad) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err %v, want one line mentioning %q", err, c.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := f.API
			if got.Key != c.want.Key || got.MaxConcurrent != c.want.MaxConcurrent || got.SharesLabEngine != c.want.SharesLabEngine || !slices.Equal(got.Origins, c.want.Origins) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// By default /v1 gets an engine of its own, so a flood on it does not
// queue learners' lab requests; --api-shares-lab-engine puts it on the
// labs' engine.
func TestAPIEnginePools(t *testing.T) {
	profile := labs.Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
	for _, c := range []struct {
		name         string
		share        bool
		labPoolAfter int
		metered      []string
	}{
		{"separate by default", false, 0, []string{"api: " + profile.String()}},
		{"shared when asked", true, 1, []string{profile.String()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			metrics, err := newServingMetrics()
			if err != nil {
				t.Fatal(err)
			}
			lab := metrics.pool("", labs.EnginesConfig{})
			defer lab.Close()
			_, closeAPI, err := startAPI(apiFlags{MaxConcurrent: 4, SharesLabEngine: c.share}, false, metrics, lab, profile)
			if err != nil {
				t.Fatal(err)
			}
			defer closeAPI()
			if lab.Len() != c.labPoolAfter {
				t.Fatalf("labs' pool has %d engines after starting /v1, want %d", lab.Len(), c.labPoolAfter)
			}
			// /v1's engine must be counted by /metrics whichever pool it is in.
			var names []string
			for _, e := range metrics.engines() {
				names = append(names, e.Name)
			}
			if !slices.Equal(names, c.metered) {
				t.Fatalf("/metrics sees engines %q, want %q", names, c.metered)
			}
		})
	}
}

// bench reaches a keyed /v1 with --api-key (or $OPENAI_API_KEY) and fails
// with one line naming the 401 without it.
func TestBenchWithAPIKey(t *testing.T) {
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	api, err := buildAPI(eng, false, apiFlags{Key: "sk-bench", MaxConcurrent: 8})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(api)
	defer ts.Close()
	args := []string{"bench", "--base-url", ts.URL + "/v1", "--num-requests", "4", "--input-len", "50", "--output-len", "5", "--json"}
	cases := []struct {
		name, envKey string
		extra        []string
		code         int
	}{
		{"flag", "", []string{"--api-key", "sk-bench"}, 0},
		{"env", "sk-bench", nil, 0},
		{"missing", "", nil, 1},
		{"wrong", "", []string{"--api-key", "sk-nope", "--model", "llama-3.1-8b"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("OPENAI_API_KEY", c.envKey)
			code, out, stderr := runCLI(append(args, c.extra...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, stderr)
			}
			if c.code != 0 {
				if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "401") {
					t.Fatalf("stderr %q: want one line naming the 401", stderr)
				}
				return
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(out), &m); err != nil || m["completed"] != 4.0 {
				t.Fatalf("completed %v (%v)\n%s", m["completed"], err, out)
			}
		})
	}
}
