package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestGraderFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    graderFlags
		wantErr string
	}{
		{"absent", nil, nil, graderFlags{}, ""},
		{"from env", nil, map[string]string{"LATENCYLAB_GRADER_URL": "http://127.0.0.1:8000/v1", "LATENCYLAB_GRADER_MODEL": "judge",
			"LATENCYLAB_GRADER_API_KEY": "k", "LATENCYLAB_GRADER_TIMEOUT": "10s"},
			graderFlags{URL: "http://127.0.0.1:8000/v1", Model: "judge", APIKey: "k", Timeout: 10 * time.Second}, ""},
		{"flags win", []string{"--grader-url", "http://other:9000/v1", "--grader-model", "m2", "--grader-timeout", "5s"},
			map[string]string{"LATENCYLAB_GRADER_URL": "http://127.0.0.1:8000/v1", "LATENCYLAB_GRADER_MODEL": "judge"},
			graderFlags{URL: "http://other:9000/v1", Model: "m2", Timeout: 5 * time.Second}, ""},
		{"bad url", []string{"--grader-url", "localhost:8000"}, nil, graderFlags{}, "--grader-url"},
		{"bad env timeout", nil, map[string]string{"LATENCYLAB_GRADER_TIMEOUT": "soon"}, graderFlags{}, "LATENCYLAB_GRADER_TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseServeFlags(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || f.Grader != tt.want {
				t.Fatalf("grader = %+v, %v; want %+v", f.Grader, err, tt.want)
			}
		})
	}
}

func TestGraderConfigAsksForTheModel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"qwen-judge","object":"model"}]}`)
	}))
	defer srv.Close()
	tests := []struct {
		name      string
		f         graderFlags
		wantModel string
	}{
		{"off", graderFlags{}, ""},
		{"named", graderFlags{URL: srv.URL + "/v1/", Model: "mine"}, "mine"},
		{"listed", graderFlags{URL: srv.URL + "/v1"}, "qwen-judge"},
		{"server without a list", graderFlags{URL: srv.URL + "/nothing"}, "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.f.config(context.Background(), io.Discard)
			if cfg.Model != tt.wantModel || strings.HasSuffix(cfg.URL, "/") {
				t.Errorf("config = %+v, want model %q and no trailing slash", cfg, tt.wantModel)
			}
		})
	}
}
