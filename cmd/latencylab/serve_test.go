package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestServeFlags(t *testing.T) {
	env := map[string]string{"LATENCYLAB_ADDR": "0.0.0.0:9999", "LATENCYLAB_DB": "/tmp/env.db"}
	getenv := func(k string) string { return env[k] }
	f, err := parseServeFlags(nil, getenv, io.Discard)
	if err != nil || f.Addr != "0.0.0.0:9999" || f.DB != "/tmp/env.db" || f.Hardware != "h100-sxm" || f.Model != "llama-3.1-8b" {
		t.Errorf("env defaults: %+v, %v", f, err)
	}
	f, err = parseServeFlags([]string{"--addr", "127.0.0.1:1", "--db", "x.db"}, getenv, io.Discard)
	if err != nil || f.Addr != "127.0.0.1:1" || f.DB != "x.db" {
		t.Errorf("flags over env: %+v, %v", f, err)
	}
	none := func(string) string { return "" }
	if f, _ := parseServeFlags(nil, none, io.Discard); f.Addr != "127.0.0.1:8080" || f.DB != "latencylab.db" {
		t.Errorf("defaults: %+v", f)
	}
}

// Bad serve flags exit 2 with one line naming the flag, before anything
// starts (no database is opened), and never name the component inside
// that refused the value.
func TestServeBadFlagsExit2WithOneLine(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--hardware", "tpu-9000"}, "--hardware"},
		{[]string{"--model", "gpt-17"}, "--model"},
		{[]string{"--no-such-flag"}, "-no-such-flag"},
		{[]string{"stray"}, `unexpected argument "stray"`},
		{[]string{"--addr", "nonsense"}, `--addr "nonsense": want HOST:PORT`},
		{[]string{"--upstream-url", "http://127.0.0.1:1/v1", "--upstream-tp", "3"}, "tensor parallelism 3"},
	}
	for _, c := range cases {
		var stderr strings.Builder
		code := run(context.Background(), append([]string{"serve", "--db", filepath.Join(t.TempDir(), "never.db")}, c.args...), io.Discard, &stderr)
		msg := stderr.String()
		if code != 2 {
			t.Errorf("serve %v: exit %d, want 2 (%s)", c.args, code, msg)
		}
		if !strings.HasPrefix(msg, "latencylab serve: ") || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("serve %v: stderr %q, want one line naming %q", c.args, msg, c.want)
		}
		if internalName.MatchString(msg) {
			t.Errorf("serve %v: stderr %q names an internal component", c.args, msg)
		}
	}
}

// TestServeStartsAndStops runs the real serve command on port 0 with a temp
// database, reads the URL it prints, checks /healthz and the home page, then
// stops it as SIGINT would.
func TestServeStartsAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	db := filepath.Join(t.TempDir(), "serve.db")
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("read the startup line: %v", err)
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("startup line %q has no URL", line)
	}
	base := strings.Fields(line[i:])[0]
	for _, p := range []string{"/healthz", "/", "/lessons", "/labs", "/v1/models", "/metrics"} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s = %d", p, resp.StatusCode)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d after shutdown, want 0", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}
