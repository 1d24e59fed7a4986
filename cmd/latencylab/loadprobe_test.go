//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The load test's probes: what one /v1 client, one learner and one
// /metrics scrape see. Each probe returns an error string instead of
// failing t, because it runs on one of a thousand goroutines and the test
// counts errors rather than stopping at the first.

// serverFigures are the process figures /metrics reports, and the finished
// requests per source that the engines observed.
type serverFigures struct {
	goroutines int
	rss        float64 // bytes
	heapAlloc  float64 // bytes of heap objects, live or not yet collected
	finished   map[string]uint64
}

// scraper reads /metrics on a connection of its own that is closed after
// every scrape, so scraping adds no idle keep-alive goroutine to the count.
type scraper struct {
	url string
	c   *http.Client
}

func newScraper(base string) *scraper {
	return &scraper{url: base + "/metrics", c: &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{DisableKeepAlives: true}}}
}

func (s *scraper) scrape() (serverFigures, error) {
	resp, err := s.c.Get(s.url)
	if err != nil {
		return serverFigures{}, fmt.Errorf("GET /metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return serverFigures{}, fmt.Errorf("GET /metrics: status %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return serverFigures{}, fmt.Errorf("parse /metrics: %w", err)
	}
	gor, rss := gaugeOf(fams["go_goroutines"]), gaugeOf(fams["process_resident_memory_bytes"])
	if gor <= 0 || rss <= 0 {
		return serverFigures{}, fmt.Errorf("/metrics has go_goroutines %v and process_resident_memory_bytes %v", gor, rss)
	}
	f := serverFigures{goroutines: int(gor), rss: rss, finished: map[string]uint64{},
		heapAlloc: gaugeOf(fams["go_memstats_heap_alloc_bytes"])}
	for _, m := range fams["vllm:e2e_request_latency_seconds"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "source" {
				f.finished[l.GetValue()] += m.GetHistogram().GetSampleCount()
			}
		}
	}
	return f, nil
}

func (s *scraper) mustScrape(t *testing.T) serverFigures {
	t.Helper()
	f, err := s.scrape()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func gaugeOf(f *dto.MetricFamily) float64 {
	if ms := f.GetMetric(); len(ms) == 1 {
		return ms[0].GetGauge().GetValue()
	}
	return -1
}

// streamV1 sends one streaming chat completion and reads it to the end.
// ttft is the wait for the first chunk carrying text, as vLLM's bench
// measures it. A stream that is not 200, carries an error or lacks
// "data: [DONE]" is an error.
func streamV1(ctx context.Context, c *http.Client, base string, n, maxTokens int) (ttft time.Duration, problem string) {
	body := fmt.Sprintf(`{"model":"llama-3.1-8b","messages":[{"role":"user","content":"Load test question %d: how long do refunds take?"}],"max_tokens":%d,"stream":true}`, n, maxTokens)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	sent := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, "request failed: " + err.Error()
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return 0, fmt.Sprintf("status %d: %s", resp.StatusCode, b)
	}
	var done bool
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		switch {
		case !ok:
			continue
		case data == "[DONE]":
			done = true
			continue
		}
		var chunk struct {
			Error   json.RawMessage `json:"error"`
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil || chunk.Error != nil {
			return ttft, fmt.Sprintf("bad chunk %.200q", data)
		}
		if ttft == 0 && len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			ttft = time.Since(sent)
		}
	}
	switch {
	case sc.Err() != nil:
		return ttft, "reading the stream: " + sc.Err().Error()
	case !done:
		return ttft, "the stream ended without data: [DONE]"
	case ttft == 0:
		return ttft, "the stream carried no text"
	}
	return ttft, ""
}

// loadLearner is one browser on the streaming lab: its own cookie and its
// own loopback address, so per-address limits count each apart.
type loadLearner struct {
	base    string
	c       *http.Client
	signals []byte // the page's Datastar signals with a short run's settings
}

// labSignalsRe finds the lab's signals on its page.
var labSignalsRe = regexp.MustCompile(`data-signals="([^"]*labStreaming[^"]*)"`)

// newLoadLearner opens the lab page from 127.0.1.(1+n), n < 255, which
// sets the learner cookie, and keeps the signals the page would post, set
// to a short answer on a short prompt.
func newLoadLearner(base string, n int) (*loadLearner, error) {
	jar, _ := cookiejar.New(nil)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(1+n))}}
	l := &loadLearner{base: base, c: &http.Client{Jar: jar, Transport: &http.Transport{DialContext: dialer.DialContext}}}
	resp, err := l.c.Get(base + "/labs/streaming")
	if err != nil {
		return nil, fmt.Errorf("learner %d: GET the lab: %w", n, err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := labSignalsRe.FindSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil {
		return nil, fmt.Errorf("learner %d: GET the lab: status %d, signals found %v", n, resp.StatusCode, m != nil)
	}
	var signals map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &signals); err != nil {
		return nil, fmt.Errorf("learner %d: the lab's signals: %w", n, err)
	}
	knobs, ok := signals["labStreaming"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("learner %d: the page has no labStreaming signals", n)
	}
	knobs["answerTokens"], knobs["promptTokens"] = 50, 50
	for k := range signals {
		if strings.HasPrefix(k, "_") { // local signals: Datastar never sends them
			delete(signals, k)
		}
	}
	l.signals, _ = json.Marshal(signals)
	return l, nil
}

// run posts one lab run as the page's Run button does and reads the
// stream to its end. It is an error unless the status ends "done", no
// error box shows a message, and the run list is refreshed (the run was
// saved).
func (l *loadLearner) run(ctx context.Context) (took time.Duration, problem string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, l.base+"/labs/streaming/run", strings.NewReader(string(l.signals)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	req.Header.Set("Origin", l.base)
	sent := time.Now()
	resp, err := l.c.Do(req)
	if err != nil {
		return 0, "request failed: " + err.Error()
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 600))
		return 0, fmt.Sprintf("status %d: %s", resp.StatusCode, b)
	}
	var done, saved bool
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, `class="lab-error"`): // a shown error box; an empty one is "lab-error hidden"
			return time.Since(sent), fmt.Sprintf("error box: %.200s", line)
		case strings.Contains(line, "status-failed"):
			return time.Since(sent), fmt.Sprintf("failed: %.200s", line)
		case strings.Contains(line, `id="lab-streaming-status" class="status status-done"`):
			done, took = true, time.Since(sent)
		case done && strings.Contains(line, `id="lab-streaming-runs"`):
			saved = true
		}
	}
	switch {
	case sc.Err() != nil:
		return took, "reading the stream: " + sc.Err().Error()
	case !done:
		return took, "the stream ended without the final frame"
	case !saved:
		return took, "the run was not saved to the run list"
	}
	return took, ""
}

func (l *loadLearner) closeIdle() { l.c.CloseIdleConnections() }

// percentile is the q-th (0..1) nearest-rank percentile of sorted.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(q * float64(len(sorted))))
	return sorted[min(max(rank-1, 0), len(sorted)-1)]
}

// spread formats p50/p99/max of xs.
func spread(xs []time.Duration) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return "none"
	}
	ms := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	return fmt.Sprintf("p50 %s p99 %s max %s", ms(percentile(s, 0.5)), ms(percentile(s, 0.99)), ms(s[len(s)-1]))
}
