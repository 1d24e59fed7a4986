// Package servemetrics exposes the serving metrics of the app's live
// engines in Prometheus format under vLLM's metric names, label names and
// histogram buckets, so a dashboard built for a vLLM server reads this one
// unchanged. It is built on the Prometheus Go client with a registry of its
// own (no global state), which also carries the Go runtime and process
// collectors (go_goroutines, go_memstats_*, process_resident_memory_bytes …)
// for watching the app itself in production.
//
// Latency histograms are filled by an Observer on each engine (see
// live.Observer), so every request that finishes on an engine is counted
// once, whoever sent it; the extra label "source" ("api", "lab", "chat")
// tells traffic apart. Gauges and token counters are read from the engines
// at scrape time.
package servemetrics

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// vLLM's histogram buckets (vllm/v1/metrics/loggers.py).
var (
	TTFTBuckets = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
		0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}
	TPOTBuckets = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
		0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0}
	E2EBuckets = []float64{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
		40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}
)

// Request sources, the values of the "source" label.
const (
	SourceAPI  = "api"  // the OpenAI-compatible /v1 surface
	SourceLab  = "lab"  // a lab run
	SourceChat = "chat" // the support-desk chat
	// SourceOther labels requests submitted without a source.
	SourceOther = "other"
)

// StatsReader is an engine whose gauges and counters a scrape reads;
// *live.Engine is one.
type StatsReader interface {
	Stats() engine.Stats
}

// Engine names one engine for the gauges: Name is the "engine" label
// (unique per engine), Model the "model_name" label.
type Engine struct {
	Name   string
	Model  string
	Engine StatsReader
}

// Config shapes the metrics.
type Config struct {
	// Engines lists, at scrape time, the engines whose gauges and counters
	// to report. nil reports none (the histograms still work).
	Engines func() []Engine
}

// Metrics owns the registry behind /metrics. Create it with New; it is safe
// for concurrent use.
type Metrics struct {
	reg             *prometheus.Registry
	ttft, tpot, e2e *prometheus.HistogramVec
	tracked         *trackedEngines
}

// labelNames are vLLM's labels (model_name, engine) plus ours (source).
var labelNames = []string{"model_name", "engine", "source"}

// New builds the registry: the vLLM metrics, and the Go and process
// collectors.
func New(cfg Config) (*Metrics, error) {
	m := &Metrics{
		reg:     prometheus.NewRegistry(),
		tracked: &trackedEngines{},
		ttft: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "vllm:time_to_first_token_seconds",
			Help: "Histogram of time to first token in seconds.", Buckets: TTFTBuckets}, labelNames),
		tpot: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "vllm:time_per_output_token_seconds",
			Help: "Histogram of time per output token in seconds.", Buckets: TPOTBuckets}, labelNames),
		e2e: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "vllm:e2e_request_latency_seconds",
			Help: "Histogram of e2e request latency in seconds.", Buckets: E2EBuckets}, labelNames),
	}
	var errs []error
	for _, c := range []prometheus.Collector{
		m.ttft, m.tpot, m.e2e,
		newEngineCollector(func() []Engine { return append(m.tracked.list(), listed(cfg.Engines)...) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	} {
		errs = append(errs, m.reg.Register(c))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("servemetrics: register: %w", err)
	}
	return m, nil
}

// Handler serves the exposition. A collector that fails (e.g. two engines
// under one name) loses its own series, not the whole scrape.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Track adds an engine that lives outside Config.Engines (one started
// once, such as a chat tier) to the gauges, for the life of the Metrics.
func (m *Metrics) Track(e Engine) { m.tracked.add(e) }

// Gatherer is the registry, for tests and for mounting elsewhere.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.reg }

// Observer returns the live.Observer for one engine; name and model must be
// the Name and Model that Config.Engines reports for it.
func (m *Metrics) Observer(name, model string) live.Observer {
	return &engineObserver{m: m, name: name, model: model}
}

// engineObserver feeds one engine's finished requests into the histograms.
type engineObserver struct {
	m           *Metrics
	name, model string

	mu       sync.Mutex
	bySource map[string]*sourceHistograms // the label lookups, done once per source
}

type sourceHistograms struct{ ttft, tpot, e2e prometheus.Observer }

// RequestFinished implements live.Observer: TTFT and end-to-end latency
// once, and every inter-token gap, as vLLM's time_per_output_token does.
func (o *engineObserver) RequestFinished(r live.RequestStats) {
	h := o.histograms(r.Source)
	t := r.Timing
	h.ttft.Observe((t.FirstToken - t.Arrival).Seconds())
	for _, g := range r.TokenGaps {
		h.tpot.Observe(g.Seconds())
	}
	h.e2e.Observe((t.End - t.Arrival).Seconds())
}

func (o *engineObserver) histograms(source string) *sourceHistograms {
	if source == "" {
		source = SourceOther
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if h, ok := o.bySource[source]; ok {
		return h
	}
	if o.bySource == nil {
		o.bySource = make(map[string]*sourceHistograms)
	}
	h := &sourceHistograms{
		ttft: o.m.ttft.WithLabelValues(o.model, o.name, source),
		tpot: o.m.tpot.WithLabelValues(o.model, o.name, source),
		e2e:  o.m.e2e.WithLabelValues(o.model, o.name, source),
	}
	o.bySource[source] = h
	return h
}
