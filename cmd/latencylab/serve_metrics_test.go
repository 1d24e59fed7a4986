package main

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/servemetrics"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/streaming"
)

// vLLM's TTFT buckets as written in vllm/v1/metrics/loggers.py.
var vllmTTFTBuckets = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
	1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}

// scrapeMetrics GETs /metrics from h and parses the exposition.
func scrapeMetrics(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics = %d", rec.Code)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// ttftBySource sums the TTFT histogram's sample count per source label,
// over every engine, and fails t unless every series has vLLM's buckets.
func ttftBySource(t *testing.T, fams map[string]*dto.MetricFamily) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, m := range fams["vllm:time_to_first_token_seconds"].GetMetric() {
		var bounds []float64
		for _, b := range m.GetHistogram().GetBucket() {
			bounds = append(bounds, b.GetUpperBound())
		}
		if !slices.Equal(bounds, append(slices.Clone(vllmTTFTBuckets), math.Inf(1))) {
			t.Errorf("TTFT buckets %v, want vLLM's", bounds)
		}
		for _, l := range m.GetLabel() {
			if l.GetName() == "source" {
				out[l.GetValue()] += m.GetHistogram().GetSampleCount()
			}
		}
	}
	return out
}

// The wiring serve uses counts every request that finishes on the labs'
// engines exactly once: /v1 streams as source "api", a lab run through the
// labs API as source "lab", a question to each chat tier as "chat", on the
// same registry that carries the Go and
// process series. The bubble runs the engines on virtual time.
func TestMetricsCountAPIAndLabRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sm, err := newServingMetrics()
		if err != nil {
			t.Fatal(err)
		}
		met := sm.Metrics
		engines := sm.pool("", labs.EnginesConfig{})
		defer engines.Close()
		eng, err := engines.Get(labs.Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"})
		if err != nil {
			t.Fatal(err)
		}
		api, err := newAPI(eng)
		if err != nil {
			t.Fatal(err)
		}
		chat, closeChat, err := newChatBackend(t.Context(), "", "", met, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer closeChat()
		before := ttftBySource(t, scrapeMetrics(t, met.Handler()))

		const apiRequests = 3
		for range apiRequests {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(
				`{"stream":true,"max_tokens":16,"messages":[{"role":"user","content":"Why does decode read the weights every step?"}]}`))
			req.Header.Set("Content-Type", "application/json")
			api.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "data: [DONE]") {
				t.Fatalf("/v1 stream: %d %q", rec.Code, rec.Body)
			}
		}
		lab, err := streaming.New(streaming.Config{Engines: engines, Tick: -1})
		if err != nil {
			t.Fatal(err)
		}
		var final labs.Frame
		if err := lab.Run(t.Context(), map[string]any{}, func(f labs.Frame) { final = f }); err != nil || !final.Final || final.Error != "" {
			t.Fatalf("lab run: %v, final frame %+v", err, final)
		}

		// The chat's tiers are engines of their own, started once.
		for _, tier := range chat.Tiers {
			st, err := tier.Provider.Stream(t.Context(), pipeline.ProviderRequest{ID: "q", ExactTokens: 5,
				Messages: []textmodel.Message{{Role: textmodel.RoleUser, Content: "Where is my order?"}}})
			if err != nil {
				t.Fatalf("chat tier %s: %v", tier.Name, err)
			}
			for {
				if _, err := st.Recv(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("chat tier %s: %v", tier.Name, err)
				}
			}
			st.Close()
		}

		fams := scrapeMetrics(t, met.Handler())
		after := ttftBySource(t, fams)
		for source, want := range map[string]uint64{servemetrics.SourceAPI: apiRequests, servemetrics.SourceLab: 1,
			servemetrics.SourceChat: uint64(len(chat.Tiers))} {
			if got := after[source] - before[source]; got != want {
				t.Errorf("TTFT count for source %q went up by %d, want %d", source, got, want)
			}
		}
		chatGauges := 0
		for _, m := range fams["vllm:num_requests_running"].GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "engine" && strings.HasPrefix(l.GetValue(), "chat ") {
					chatGauges++
				}
			}
		}
		if chatGauges != len(chat.Tiers) || len(chat.Tiers) == 0 {
			t.Errorf("%d chat engines report gauges, want all %d tiers", chatGauges, len(chat.Tiers))
		}
		for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "vllm:num_requests_running", "vllm:generation_tokens_total"} {
			if len(fams[name].GetMetric()) == 0 {
				t.Errorf("/metrics has no %s", name)
			}
		}
	})
}

// Two pools may start an engine of the same profile (the labs' and one kept
// for /v1): their prefixes keep both engines' series on the scrape.
func TestServingMetricsKeepsPoolsApart(t *testing.T) {
	sm, err := newServingMetrics()
	if err != nil {
		t.Fatal(err)
	}
	p := labs.Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
	for _, prefix := range []string{"", "api: "} {
		pool := sm.pool(prefix, labs.EnginesConfig{})
		defer pool.Close()
		if _, err := pool.Get(p); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, m := range scrapeMetrics(t, sm.Handler())["vllm:num_requests_waiting"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "engine" {
				names = append(names, l.GetValue())
			}
		}
	}
	slices.Sort(names)
	if want := []string{"api: " + p.String(), p.String()}; !slices.Equal(names, want) {
		t.Errorf("engines on the scrape %q, want %q", names, want)
	}
}
