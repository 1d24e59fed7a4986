package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Stop cancels the learner's run of that lab at once: the lab's context
// ends (which frees the engine's KV cache), the run's own stream says it
// stopped, and nothing is left registered.
func TestStopEndsTheRun(t *testing.T) {
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	c := client(t)
	get(t, c, base+"/labs/ticker") // the learner cookie, so Stop finds the run

	resp := postRun(t, context.Background(), c, base, `{"labTicker":{"steps":400,"gapMs":100}}`)
	defer resp.Body.Close()
	select {
	case <-s.lab.started:
	case <-time.After(5 * time.Second):
		t.Fatal("the run did not start")
	}
	// Another learner's Stop must not reach this run.
	other := client(t)
	get(t, other, base+"/labs/ticker")
	if r := postStop(t, other, base, "ticker"); r.StatusCode != http.StatusOK {
		t.Fatalf("another learner's stop: %d", r.StatusCode)
	}
	select {
	case <-s.lab.canceled:
		t.Fatal("another learner's Stop cancelled the run")
	case <-time.After(300 * time.Millisecond):
	}
	if r := postStop(t, c, base, "ticker"); r.StatusCode != http.StatusOK {
		t.Fatalf("stop: %d", r.StatusCode)
	}
	select {
	case <-s.lab.canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not cancel the lab's context")
	}
	var status, errBox string
	if err := readEvents(resp.Body, func(e sseEvent) bool {
		switch e.selector() {
		case "#lab-ticker-status":
			status = e.html()
		case "#lab-ticker-error":
			errBox = e.html()
		}
		return true
	}); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("reading the run: %v", err)
	}
	if !strings.Contains(status, "status-stopped") || !strings.Contains(status, "Stopped.") {
		t.Errorf("last status %q, want the stopped state and message", status)
	}
	if strings.Contains(errBox, "Stopped") {
		t.Errorf("a stop the learner asked for shows as an error: %q", errBox)
	}
	if n := s.labRuns.size(); n != 0 {
		t.Errorf("%d learners still have runs registered after the run ended", n)
	}
}

// A Stop pressed the moment after Run can reach the server first; it
// waits for the run its token names, which then stops as it starts.
func TestStopBeforeItsRun(t *testing.T) {
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	c := client(t)
	get(t, c, base+"/labs/ticker")
	req, _ := http.NewRequest(http.MethodPost, base+"/labs/ticker/stop", strings.NewReader(`{"labTickerToken":"k3x9q2"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	if r, err := c.Do(req); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("early stop: %v %v", r, err)
	}
	resp := postRun(t, context.Background(), c, base, `{"labTicker":{"steps":400,"gapMs":100},"labTickerToken":"k3x9q2"}`)
	defer resp.Body.Close()
	var status string
	if err := readEvents(resp.Body, func(e sseEvent) bool {
		if e.selector() == "#lab-ticker-status" {
			status = e.html()
		}
		return true
	}); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("reading the run: %v", err)
	}
	if !strings.Contains(status, "status-stopped") {
		t.Errorf("last status %q, want the run stopped by the early Stop", status)
	}
}

// Stop answers what it cannot do with a reason and saves nothing.
func TestStopRefusals(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/labs/ticker")
	for _, tc := range []struct {
		name   string
		c      *http.Client
		slug   string
		status int
	}{
		{"nothing running", c, "ticker", http.StatusOK},
		{"unknown lab", c, "nope", http.StatusNotFound},
		{"no learner cookie", &http.Client{}, "ticker", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := postStop(t, tc.c, ts.URL, tc.slug); r.StatusCode != tc.status {
				t.Errorf("POST /labs/%s/stop: %d, want %d", tc.slug, r.StatusCode, tc.status)
			}
		})
	}
	if resp, _ := get(t, c, ts.URL+"/labs/ticker/stop"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET stop: %d, want 405 (state changes only by POST)", resp.StatusCode)
	}
}

func postStop(t *testing.T, c *http.Client, base, slug string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/labs/"+slug+"/stop", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST stop: %v", err)
	}
	resp.Body.Close()
	return resp
}
