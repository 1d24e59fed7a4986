// Package fidelity holds the engine's public reference set — published
// measurements of real vLLM servers, each with its source and exact
// workload — and measures how far the bundled engine lands from them.
// Whole sources are held out: the cost model's constants are chosen
// looking only at the fitted sources, and the held-out error is the
// honest estimate of the engine's error on figures it has never seen.
package fidelity

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/latencylab/latencylab/engine"
)

//go:embed references.json
var referencesJSON []byte

// Source is one published result set. Held-out sources are never looked
// at when the model's constants are chosen.
type Source struct {
	ID        string `json:"id"`
	Publisher string `json:"publisher"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	HeldOut   bool   `json:"held_out"`
}

// Run is one published benchmark run: the deployment, the workload
// exactly as it was sent, and the figures it measured.
type Run struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	// Engine names the server version and the benchmark tool and settings.
	Engine string `json:"engine"`
	// URL points at the exact file, post or pull request holding the figures.
	URL            string          `json:"url"`
	Hardware       string          `json:"hardware"`
	HardwareConfig json.RawMessage `json:"hardware_config"`
	Model          string          `json:"model"`
	// ModelConfig is the model's Hugging Face config.json (the fields the
	// engine reads), for models that are not built-in profiles.
	ModelConfig    json.RawMessage  `json:"model_config"`
	Precision      engine.Precision `json:"precision"`
	TP             int              `json:"tp"`
	ChunkedPrefill bool             `json:"chunked_prefill"`
	PrefixCaching  bool             `json:"prefix_caching"`
	// MaxNumSeqs and MaxNumBatchedTokens are the server's scheduler limits
	// when they differ from the engine's defaults (vLLM picks them by GPU);
	// 0 keeps the default.
	MaxNumSeqs          int `json:"max_num_seqs"`
	MaxNumBatchedTokens int `json:"max_num_batched_tokens"`
	// NumSchedulerSteps is the server's --num-scheduler-steps (vLLM 0.6
	// multi-step scheduling); 0 when it ran one step per schedule.
	NumSchedulerSteps int `json:"num_scheduler_steps"`
	// Served marks a run measured through an HTTP server by a benchmark
	// client (benchmark_serving, vllm bench serve), whose figures include
	// the serving front end; offline runs (benchmark_latency) do not.
	Served bool `json:"served"`
	// InputLens and OutputLens list every request's lengths (ShareGPT-style
	// runs); InputLen, OutputLen and NumPrompts describe fixed-length runs.
	InputLens      []int              `json:"input_lens"`
	OutputLens     []int              `json:"output_lens"`
	InputLen       int                `json:"input_len"`
	OutputLen      int                `json:"output_len"`
	NumPrompts     int                `json:"num_prompts"`
	MaxConcurrency int                `json:"max_concurrency"`
	Metrics        map[string]float64 `json:"metrics"`
}

// Set is the whole reference set.
type Set struct {
	About string `json:"about"`
	// Notes say what the set leaves out and where the engine misses most.
	Notes   []string `json:"notes"`
	Sources []Source `json:"sources"`
	Runs    []Run    `json:"references"`
}

// Publishers is how many independent publishers the sources come from
// (one publisher may publish several result sets).
func (s *Set) Publishers() int {
	seen := map[string]bool{}
	for _, src := range s.Sources {
		seen[src.Publisher] = true
	}
	return len(seen)
}

// Load returns the reference set shipped with the binary.
func Load() (*Set, error) { return Parse(bytes.NewReader(referencesJSON)) }

// Parse reads and checks a reference set.
func Parse(r io.Reader) (*Set, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var s Set
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("reference set: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("reference set: %w", err)
	}
	return &s, nil
}

// Validate reports a run that names no known source, carries no figure or
// an unknown one, or whose workload is incomplete.
func (s *Set) Validate() error {
	if len(s.Runs) == 0 {
		return errors.New("no references")
	}
	sources := map[string]bool{}
	for _, src := range s.Sources {
		if src.ID == "" || src.URL == "" {
			return errors.New("every source needs an id and a url")
		}
		if sources[src.ID] {
			return fmt.Errorf("source %q listed twice", src.ID)
		}
		sources[src.ID] = true
	}
	ids := map[string]bool{}
	for i := range s.Runs {
		r := &s.Runs[i]
		if r.ID == "" || ids[r.ID] {
			return fmt.Errorf("reference %d: missing or repeated id %q", i, r.ID)
		}
		ids[r.ID] = true
		if !sources[r.Source] {
			return fmt.Errorf("%s: unknown source %q", r.ID, r.Source)
		}
		if err := r.validateWorkload(); err != nil {
			return fmt.Errorf("%s: %w", r.ID, err)
		}
		if len(r.Metrics) == 0 {
			return fmt.Errorf("%s: no figures", r.ID)
		}
		for name, v := range r.Metrics {
			if _, ok := metricKinds[name]; !ok {
				return fmt.Errorf("%s: unknown figure %q (valid: %s)", r.ID, name, strings.Join(MetricNames(), ", "))
			}
			if !(v > 0) {
				return fmt.Errorf("%s: %s = %g, want a positive figure", r.ID, name, v)
			}
		}
	}
	return nil
}

// maxRequests bounds a replayed workload so a bad file cannot stall start-up.
const maxRequests = 10000

func (r *Run) validateWorkload() error {
	if len(r.InputLens) != len(r.OutputLens) {
		return fmt.Errorf("%d input lengths but %d output lengths", len(r.InputLens), len(r.OutputLens))
	}
	if len(r.InputLens)+r.NumPrompts == 0 {
		return errors.New("no requests")
	}
	if r.MaxNumSeqs < 0 || r.MaxNumBatchedTokens < 0 {
		return fmt.Errorf("scheduler limits must not be negative (max_num_seqs %d, max_num_batched_tokens %d)", r.MaxNumSeqs, r.MaxNumBatchedTokens)
	}
	if len(r.InputLens)+r.NumPrompts > maxRequests || r.NumPrompts < 0 || r.MaxConcurrency < 0 {
		return fmt.Errorf("workload of %d requests (max concurrency %d) is out of range", len(r.InputLens)+r.NumPrompts, r.MaxConcurrency)
	}
	if r.NumPrompts > 0 && (r.InputLen < 1 || r.OutputLen < 1) {
		return fmt.Errorf("fixed-length prompts need input_len and output_len, got %d and %d", r.InputLen, r.OutputLen)
	}
	for i, in := range r.InputLens {
		if in < 1 || r.OutputLens[i] < 0 {
			return fmt.Errorf("request %d: lengths %d in, %d out", i, in, r.OutputLens[i])
		}
	}
	return nil
}

// Kind groups figures a learner compares: time to first token, time per
// output token, end-to-end latency, and throughput.
type Kind string

// Figure kinds.
const (
	TTFT       Kind = "ttft"
	TPOT       Kind = "tpot"
	E2E        Kind = "e2e"
	Throughput Kind = "throughput"
)

// Kinds lists the kinds in the order pages show them.
func Kinds() []Kind { return []Kind{TTFT, TPOT, E2E, Throughput} }

// Label is the kind's name for a page.
func (k Kind) Label() string {
	switch k {
	case TTFT:
		return "time to first token"
	case TPOT:
		return "time per output token"
	case E2E:
		return "end-to-end latency"
	}
	return "throughput"
}

// metricKinds maps each figure a reference may carry to its kind.
var metricKinds = map[string]Kind{
	"median_ttft_ms": TTFT,
	"median_tpot_ms": TPOT,
	"median_itl_ms":  TPOT,
	"mean_e2e_ms":    E2E,
	"median_e2e_ms":  E2E,
	"duration_s":     Throughput,
	// output_throughput is generated tokens per second of the whole run,
	// as vLLM's result JSON names it; for one request alone it is the
	// output length over its end-to-end time.
	"output_throughput": Throughput,
}

// MetricNames lists the figures a reference may carry.
func MetricNames() []string {
	names := make([]string, 0, len(metricKinds))
	for n := range metricKinds {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// MetricLabel is a figure's name for a page, with its unit.
func MetricLabel(name string) string {
	switch name {
	case "median_ttft_ms":
		return "median TTFT (ms)"
	case "median_tpot_ms":
		return "median TPOT (ms)"
	case "median_itl_ms":
		return "median inter-token gap (ms)"
	case "mean_e2e_ms":
		return "mean end-to-end (ms)"
	case "median_e2e_ms":
		return "median end-to-end (ms)"
	case "duration_s":
		return "benchmark duration (s)"
	case "output_throughput":
		return "output tokens per second"
	}
	return name
}
