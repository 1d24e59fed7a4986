package servemetrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// trackedEngines are the engines added with Metrics.Track.
type trackedEngines struct {
	mu  sync.Mutex
	all []Engine
}

func (t *trackedEngines) add(e Engine) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.all = append(t.all, e)
}

func (t *trackedEngines) list() []Engine {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Engine(nil), t.all...)
}

// listed calls engines, if set.
func listed(engines func() []Engine) []Engine {
	if engines == nil {
		return nil
	}
	return engines()
}

// engineCollector reads the engines' gauges and cumulative counters at
// scrape time. The engine keeps its own counters, so mirroring them as
// constant metrics is exact and costs nothing between scrapes.
type engineCollector struct {
	engines func() []Engine

	running, waiting, gpuCache, kvCache *prometheus.Desc
	preemptions, prompt, generation     *prometheus.Desc
}

func newEngineCollector(engines func() []Engine) *engineCollector {
	labels := []string{"model_name", "engine"}
	desc := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, labels, nil) }
	return &engineCollector{
		engines:     engines,
		running:     desc("vllm:num_requests_running", "Number of requests in model execution batches."),
		waiting:     desc("vllm:num_requests_waiting", "Number of requests waiting to be processed."),
		gpuCache:    desc("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage."),
		kvCache:     desc("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage."),
		preemptions: desc("vllm:num_preemptions_total", "Cumulative number of preemption from the engine."),
		prompt:      desc("vllm:prompt_tokens_total", "Number of prefill tokens processed."),
		generation:  desc("vllm:generation_tokens_total", "Number of generation tokens processed."),
	}
}

// Describe implements prometheus.Collector.
func (c *engineCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.running, c.waiting, c.gpuCache, c.kvCache, c.preemptions, c.prompt, c.generation} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *engineCollector) Collect(ch chan<- prometheus.Metric) {
	for _, e := range c.engines() {
		st := e.Engine.Stats()
		for _, s := range []struct {
			desc *prometheus.Desc
			typ  prometheus.ValueType
			v    float64
		}{
			{c.running, prometheus.GaugeValue, float64(st.Running)},
			{c.waiting, prometheus.GaugeValue, float64(st.Waiting)},
			{c.gpuCache, prometheus.GaugeValue, st.KVUsage},
			{c.kvCache, prometheus.GaugeValue, st.KVUsage},
			{c.preemptions, prometheus.CounterValue, float64(st.Preemptions)},
			{c.prompt, prometheus.CounterValue, float64(st.PromptTokens)},
			{c.generation, prometheus.CounterValue, float64(st.GenerationTokens)},
		} {
			ch <- prometheus.MustNewConstMetric(s.desc, s.typ, s.v, e.Model, e.Name)
		}
	}
}
