package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/web"
)

func TestWorkshopFlags(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want web.WorkshopConfig
	}{
		{"defaults", nil, nil, web.WorkshopConfig{}},
		{"env", map[string]string{"LATENCYLAB_WORKSHOP_SIZE": "120", "LATENCYLAB_WORKSHOP_MAX_LOAD": "40"}, nil, web.WorkshopConfig{SizeCap: 120, MaxLoadRPS: 40}},
		{"flags over env", map[string]string{"LATENCYLAB_WORKSHOP_SIZE": "120"}, []string{"--workshop-size", "50", "--workshop-max-load", "7.5"}, web.WorkshopConfig{SizeCap: 50, MaxLoadRPS: 7.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseServeFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Workshops.config(); got != tt.want {
				t.Errorf("workshops %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBadWorkshopFlagsExit2WithOneLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"negative size", []string{"--workshop-size", "-3"}, "want 0 (the default) or more"},
		{"size past the limit", []string{"--workshop-size", "20000"}, "workshop size cap 20000"},
		{"dial past the limit", []string{"--workshop-max-load", "5000"}, "workshop max load"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			code := run(context.Background(), append([]string{"serve", "--addr", "127.0.0.1:0", "--db", t.TempDir() + "/x.db"}, tt.args...), io.Discard, &stderr)
			msg := stderr.String()
			if code != 2 || !strings.Contains(msg, tt.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, msg, tt.want)
			}
		})
	}
	if _, err := parseServeFlags(nil, func(k string) string { return map[string]string{"LATENCYLAB_WORKSHOP_SIZE": "many"}[k] }, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "LATENCYLAB_WORKSHOP_SIZE") {
		t.Errorf("bad env: %v", err)
	}
}
