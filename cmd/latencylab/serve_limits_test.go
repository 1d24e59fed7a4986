package main

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/web"
)

func TestLimitFlags(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want web.Limits
	}{
		{"defaults", nil, nil, web.Limits{}},
		{"env", map[string]string{"LATENCYLAB_ALLOWED_ORIGINS": "https://lab.example.org, http://localhost:8080",
			"LATENCYLAB_TRUSTED_PROXIES": "10.0.0.0/8", "LATENCYLAB_MAX_RUNS": "12", "LATENCYLAB_MAX_RUNS_PER_ADDR": "6"}, nil,
			web.Limits{AllowedOrigins: []string{"https://lab.example.org", "http://localhost:8080"},
				TrustedProxies: []string{"10.0.0.0/8"}, MaxRunsTotal: 12, MaxRunsPerAddr: 6}},
		{"flags over env", map[string]string{"LATENCYLAB_MAX_RUNS": "12", "LATENCYLAB_TRUSTED_PROXIES": "10.0.0.0/8"},
			[]string{"--max-runs-total", "3", "--trusted-proxies", "127.0.0.1,::1", "--max-runs-per-addr", "2"},
			web.Limits{TrustedProxies: []string{"127.0.0.1", "::1"}, MaxRunsTotal: 3, MaxRunsPerAddr: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseServeFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Limits.limits(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("limits %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBadLimitsExit2WithOneLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"null origin", []string{"--allowed-origins", "null"}, nil, `allowed origin "null"`},
		{"origin and proxy both bad", []string{"--allowed-origins", "lab.example.org", "--trusted-proxies", "everyone"}, nil, `trusted proxy "everyone"`},
		{"negative cap", []string{"--max-runs-total", "-1"}, nil, "want 0 (the default) or more"},
		{"env not a number", nil, map[string]string{"LATENCYLAB_MAX_RUNS": "lots"}, `LATENCYLAB_MAX_RUNS="lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != nil {
				if _, err := parseServeFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard); err == nil ||
					!strings.Contains(err.Error(), tt.want) {
					t.Errorf("parse: %v, want %q", err, tt.want)
				}
				return
			}
			var stderr strings.Builder
			dir := t.TempDir()
			code := run(context.Background(), append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dir + "/x.db"}, tt.args...), io.Discard, &stderr)
			msg := stderr.String()
			if code != 2 || !strings.Contains(msg, tt.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, msg, tt.want)
			}
		})
	}
}
