package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A /v1 flood through the real serve command, from clients that bring a
// fresh cookie each or none, is held to --api-max-concurrency: the first
// requests stream (each is thousands of tokens long on the wall clock, so
// none ends during the flood) and every other one gets 429 with
// Retry-After. No response sets a learner cookie: /v1 keeps no learner.
func TestServeV1FloodHeldToTheCap(t *testing.T) {
	const limit, flood = 3, 24
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	db := filepath.Join(t.TempDir(), "flood.db")
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--api-key", "sk-flood",
			"--api-max-concurrency", fmt.Sprint(limit)}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("read the startup line: %v", err)
	}
	go io.Copy(io.Discard, pr)
	base := strings.Fields(line[strings.Index(line, "http://"):])[0]

	reqCtx, stopRequests := context.WithCancel(ctx)
	statuses := make(chan *http.Response, flood)
	var wg sync.WaitGroup
	for i := range flood {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(reqCtx, "POST", base+"/v1/completions",
				strings.NewReader(`{"prompt":"flood","max_tokens":4000,"ignore_eos":true,"stream":true}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer sk-flood")
			if i%2 == 1 {
				req.Header.Set("Cookie", fmt.Sprintf("ll_learner=%032x", i))
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			statuses <- resp
		}()
	}
	streaming, refused := 0, 0
	for range flood {
		select {
		case resp := <-statuses:
			switch {
			case resp.StatusCode == http.StatusOK:
				streaming++
			case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "":
				refused++
			default:
				t.Errorf("status %d (Retry-After %q)", resp.StatusCode, resp.Header.Get("Retry-After"))
			}
			if c := resp.Header.Get("Set-Cookie"); c != "" {
				t.Errorf("/v1 set a cookie %q", c)
			}
			defer resp.Body.Close()
		case <-time.After(30 * time.Second):
			t.Fatalf("after 30 s: %d streaming, %d refused of %d", streaming, refused, flood)
		}
	}
	if streaming != limit || refused != flood-limit {
		t.Fatalf("%d streaming and %d refused, want %d and %d", streaming, refused, limit, flood-limit)
	}
	stopRequests()
	wg.Wait()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d, want 0", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
}
