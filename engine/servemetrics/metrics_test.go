package servemetrics

import (
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// vLLM's buckets as written in vllm/v1/metrics/loggers.py, kept apart from
// the package's own lists so a changed bound fails here.
var (
	vllmTTFT = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
		5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}
	vllmTPOT = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5,
		5.0, 7.5, 10.0, 20.0, 40.0, 80.0}
	vllmE2E = []float64{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0,
		60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}
)

type fixedStats engine.Stats

func (f fixedStats) Stats() engine.Stats { return engine.Stats(f) }

// scrape fetches /metrics through the handler and parses it.
func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics = %d: %s", rec.Code, rec.Body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse exposition: %v", err)
	}
	return fams
}

// series finds the metric of fam whose labels include all of want.
func series(t *testing.T, fams map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	t.Helper()
	fam := fams[name]
	if fam == nil {
		t.Fatalf("no family %s", name)
	}
next:
	for _, m := range fam.GetMetric() {
		for k, v := range want {
			if !slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool { return l.GetName() == k && l.GetValue() == v }) {
				continue next
			}
		}
		return m
	}
	t.Fatalf("%s has no series with %v", name, want)
	return nil
}

// cumulative is a histogram's bucket bounds (the last +Inf) and
// cumulative counts.
func cumulative(m *dto.Metric) (bounds []float64, counts []uint64) {
	for _, b := range m.GetHistogram().GetBucket() {
		bounds = append(bounds, b.GetUpperBound())
		counts = append(counts, b.GetCumulativeCount())
	}
	return bounds, counts
}

func TestExposition(t *testing.T) {
	const modelName, name = `we"ird\name`, "h100 engine"
	m, err := New(Config{Engines: func() []Engine {
		return []Engine{{Name: name, Model: modelName, Engine: fixedStats{Running: 3, Waiting: 1, KVUsage: 0.25,
			Preemptions: 2, PromptTokens: 2048, GenerationTokens: 7}}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	obs := m.Observer(name, modelName)
	ms := time.Millisecond
	obs.RequestFinished(live.RequestStats{Source: "api", Timing: engine.Timing{Arrival: 100 * ms, FirstToken: 130 * ms, End: 800 * ms},
		TokenGaps: []time.Duration{10 * ms, 20 * ms}})
	obs.RequestFinished(live.RequestStats{Source: "api", Timing: engine.Timing{FirstToken: 2 * time.Second, End: 3 * time.Second}})
	obs.RequestFinished(live.RequestStats{Source: "lab", Timing: engine.Timing{FirstToken: 50 * ms, End: 400 * ms}})
	obs.RequestFinished(live.RequestStats{Timing: engine.Timing{FirstToken: ms, End: ms}})
	fams := scrape(t, m.Handler())

	for _, g := range []struct {
		name string
		typ  dto.MetricType
		want float64
	}{
		{"vllm:num_requests_running", dto.MetricType_GAUGE, 3},
		{"vllm:num_requests_waiting", dto.MetricType_GAUGE, 1},
		{"vllm:gpu_cache_usage_perc", dto.MetricType_GAUGE, 0.25},
		{"vllm:kv_cache_usage_perc", dto.MetricType_GAUGE, 0.25},
		{"vllm:num_preemptions_total", dto.MetricType_COUNTER, 2},
		{"vllm:prompt_tokens_total", dto.MetricType_COUNTER, 2048},
		{"vllm:generation_tokens_total", dto.MetricType_COUNTER, 7},
	} {
		if typ := fams[g.name].GetType(); typ != g.typ {
			t.Errorf("%s is a %v, want %v", g.name, typ, g.typ)
		}
		s := series(t, fams, g.name, map[string]string{"model_name": modelName, "engine": name})
		if got := s.GetGauge().GetValue() + s.GetCounter().GetValue(); got != g.want {
			t.Errorf("%s = %v, want %v", g.name, got, g.want)
		}
	}

	for _, h := range []struct {
		name, source string
		bounds       []float64
		count        uint64
		sum          float64
		// cumulative counts at some bounds
		at map[float64]uint64
	}{
		// TTFT 0.03 s falls in le=0.04, 2 s in le=2.5 (bounds are inclusive).
		{"vllm:time_to_first_token_seconds", "api", vllmTTFT, 2, 2.03, map[float64]uint64{0.02: 0, 0.04: 1, 1.0: 1, 2.5: 2}},
		{"vllm:time_to_first_token_seconds", "lab", vllmTTFT, 1, 0.05, map[float64]uint64{0.04: 0, 0.06: 1}},
		{"vllm:time_to_first_token_seconds", SourceOther, vllmTTFT, 1, 0.001, map[float64]uint64{0.001: 1}},
		// Gaps 0.01 (le=0.01) and 0.02 (le=0.025); the second request had none.
		{"vllm:time_per_output_token_seconds", "api", vllmTPOT, 2, 0.03, map[float64]uint64{0.01: 1, 0.025: 2}},
		{"vllm:e2e_request_latency_seconds", "api", vllmE2E, 2, 3.7, map[float64]uint64{0.5: 0, 0.8: 1, 2.5: 1, 5.0: 2}},
	} {
		s := series(t, fams, h.name, map[string]string{"model_name": modelName, "engine": name, "source": h.source})
		bounds, counts := cumulative(s)
		if !slices.Equal(bounds, append(slices.Clone(h.bounds), math.Inf(1))) {
			t.Errorf("%s buckets %v, want vLLM's %v", h.name, bounds, h.bounds)
		}
		if got := s.GetHistogram().GetSampleCount(); got != h.count {
			t.Errorf("%s{source=%s} count %d, want %d", h.name, h.source, got, h.count)
		}
		if got := s.GetHistogram().GetSampleSum(); got < h.sum-1e-9 || got > h.sum+1e-9 {
			t.Errorf("%s{source=%s} sum %v, want %v", h.name, h.source, got, h.sum)
		}
		for le, want := range h.at {
			if i := slices.Index(bounds, le); i < 0 || counts[i] != want {
				t.Errorf("%s{source=%s} le=%v: counts %v, want %d there", h.name, h.source, le, counts, want)
			}
		}
	}

	for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "process_resident_memory_bytes", "process_open_fds"} {
		if fams[name] == nil {
			t.Errorf("no %s in the exposition", name)
		}
	}
}

// Two engines reported under one name are a wiring mistake; the scrape
// still answers with everything else rather than failing whole.
func TestDuplicateEngineKeepsScrape(t *testing.T) {
	m, err := New(Config{Engines: func() []Engine {
		e := Engine{Name: "same", Model: "m", Engine: fixedStats{}}
		return []Engine{e, e}
	}})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if fams["go_goroutines"] == nil || fams["process_resident_memory_bytes"] == nil {
		t.Errorf("a bad engine list took the runtime series with it: %d families", len(fams))
	}
}

// Tracked engines report gauges beside the listed ones.
func TestTrackedEnginesReportGauges(t *testing.T) {
	m, err := New(Config{Engines: func() []Engine {
		return []Engine{{Name: "pool", Model: "m", Engine: fixedStats{Running: 1}}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	m.Track(Engine{Name: "chat small", Model: "m", Engine: fixedStats{Running: 4}})
	fams := scrape(t, m.Handler())
	for name, want := range map[string]float64{"pool": 1, "chat small": 4} {
		if got := series(t, fams, "vllm:num_requests_running", map[string]string{"engine": name}).GetGauge().GetValue(); got != want {
			t.Errorf("engine %q running = %v, want %v", name, got, want)
		}
	}
}
