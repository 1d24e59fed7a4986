package benchmark

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
)

// stepClock advances 10 ms on every reading, so measured gaps are exact.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.t
	c.t = c.t.Add(10 * time.Millisecond)
	return now
}

// After fires at once: these tests send every request at arrival 0.
func (c *stepClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

func sseServer(t *testing.T, events ...string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/completions" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"message":"no route","type":"invalid_request_error","param":null,"code":null}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			fmt.Fprintf(w, "data: %s\n\n", e)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRunHTTPMeasuresLikeVLLM(t *testing.T) {
	srv := sseServer(t,
		`{"id":"c","object":"text_completion","choices":[{"index":0,"text":"Hello","finish_reason":null}]}`,
		`{"id":"c","object":"text_completion","choices":[{"index":0,"text":" world","finish_reason":null}]}`,
		`{"id":"c","object":"text_completion","choices":[{"index":0,"text":"","finish_reason":"length"}]}`,
		`{"id":"c","object":"text_completion","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}`,
		`[DONE]`)
	clk := &stepClock{t: time.Unix(1000, 0)}
	target := HTTPTarget{Client: &upstream.Client{BaseURL: srv.URL + "/v1", Clock: clk}, Model: "m"}
	outs, _ := RunHTTP(context.Background(), target, []Request{{ID: "a", Prompt: "hi", PromptLen: 7, OutputLen: 2}}, 0)
	o := outs[0]
	// clock readings: start 0, arrival check 10, sent 20, chunks 30, 40, finish 50, usage 60
	// Queue is the sent time past the arrival (0): the clock's own steps.
	want := Output{Success: true, PromptLen: 7, OutputTokens: 2, Start: 20 * ms, Queue: 20 * ms, TTFT: 10 * ms,
		ITL: []time.Duration{10 * ms}, Latency: 30 * ms, Text: "Hello world", FinishReason: "length"}
	if fmt.Sprint(o) != fmt.Sprint(want) {
		t.Fatalf("output\n got %+v\nwant %+v", o, want)
	}
}

func TestRunHTTPReportsServerErrors(t *testing.T) {
	srv := sseServer(t)
	target := HTTPTarget{Client: &upstream.Client{BaseURL: srv.URL + "/wrong"}, Model: "m"}
	outs, _ := RunHTTP(context.Background(), target, []Request{{ID: "a", Prompt: "hi", PromptLen: 1, OutputLen: 2}}, 1)
	if outs[0].Success || !strings.Contains(outs[0].Error, "404") || !strings.Contains(outs[0].Error, "no route") {
		t.Fatalf("output %+v, want a failed request naming 404 and the message", outs[0])
	}
	r := Compute(outs, time.Second, []float64{99})
	if r.Failed != 1 || r.Completed != 0 || r.FirstError == "" {
		t.Fatalf("result %+v", r)
	}
}

func TestRunHTTPHonoursMaxConcurrency(t *testing.T) {
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
		fmt.Fprint(w, "data: {\"choices\":[{\"text\":\"x\",\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	go func() {
		// Let requests pile up against the cap, then drain them one by one.
		for range 6 {
			time.Sleep(20 * time.Millisecond)
			release <- struct{}{}
		}
	}()
	reqs := make([]Request, 6)
	for i := range reqs {
		reqs[i] = Request{ID: fmt.Sprint(i), Prompt: "p", PromptLen: 1, OutputLen: 1}
	}
	outs, _ := RunHTTP(context.Background(), HTTPTarget{Client: &upstream.Client{BaseURL: srv.URL}}, reqs, 2)
	for _, o := range outs {
		if !o.Success {
			t.Fatalf("request failed: %s", o.Error)
		}
	}
	if peak > 2 {
		t.Fatalf("%d requests in flight, cap was 2", peak)
	}
}
