package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// reference is one published measurement from testdata/reference.json.
type reference struct {
	ID             string             `json:"id"`
	Engine         string             `json:"engine"`
	Source         string             `json:"source"`
	Hardware       string             `json:"hardware"`
	HardwareConfig json.RawMessage    `json:"hardware_config"`
	Model          string             `json:"model"`
	Precision      Precision          `json:"precision"`
	TP             int                `json:"tp"`
	ChunkedPrefill bool               `json:"chunked_prefill"`
	PrefixCaching  bool               `json:"prefix_caching"`
	InputLens      []int              `json:"input_lens"`
	OutputLens     []int              `json:"output_lens"`
	InputLen       int                `json:"input_len"`
	OutputLen      int                `json:"output_len"`
	NumPrompts     int                `json:"num_prompts"`
	MaxConcurrency int                `json:"max_concurrency"`
	Metrics        map[string]float64 `json:"metrics"`
}

func loadReferences(t *testing.T) []reference {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		References []reference `json:"references"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.References
}

// run replays a reference workload on the virtual clock.
func (ref *reference) run() (metrics, error) {
	cfg := DefaultConfig()
	var err error
	if len(ref.HardwareConfig) > 0 {
		cfg.Hardware, err = LoadHardwareConfig(bytes.NewReader(ref.HardwareConfig))
	} else {
		cfg.Hardware, err = LookupHardware(ref.Hardware)
	}
	if err != nil {
		return metrics{}, err
	}
	if cfg.Model, err = LookupModel(ref.Model); err != nil {
		return metrics{}, err
	}
	cfg.Precision, cfg.TP = ref.Precision, ref.TP
	cfg.ChunkedPrefill, cfg.PrefixCaching = ref.ChunkedPrefill, ref.PrefixCaching
	r := rand.New(rand.NewPCG(7, 7))
	var reqs []Request
	add := func(in, out int) {
		reqs = append(reqs, Request{ID: fmt.Sprint(len(reqs)), PromptTokens: randomPrompt(r, in), MaxTokens: out, IgnoreEOS: true})
	}
	for i, in := range ref.InputLens {
		if out := ref.OutputLens[i]; out > 0 { // zero-output rows carry no timing
			add(in, out)
		}
	}
	for range ref.NumPrompts {
		add(ref.InputLen, ref.OutputLen)
	}
	res, err := Simulate(cfg, reqs, SimOptions{MaxConcurrency: ref.MaxConcurrency})
	if err != nil {
		return metrics{}, err
	}
	return summarize(res), nil
}

func (m metrics) value(name string) (float64, bool) {
	switch name {
	case "median_tpot_ms":
		return float64(m.medianTPOT.Microseconds()) / 1000, true
	case "median_ttft_ms":
		return float64(m.medianTTFT.Microseconds()) / 1000, true
	case "mean_e2e_ms":
		return float64(m.meanE2E.Microseconds()) / 1000, true
	case "duration_s":
		return m.duration.Seconds(), true
	case "output_throughput":
		return m.outputThroughput, true
	}
	return 0, false
}

// TestCalibration replays every published measurement and reports the
// model's error against each, and the median. The bound is loose on
// purpose (a broken model misses it by far); the goal is a median under 10%.
func TestCalibration(t *testing.T) {
	var errs []float64
	for _, ref := range loadReferences(t) {
		m, err := ref.run()
		if err != nil {
			t.Fatalf("%s: %v", ref.ID, err)
		}
		names := make([]string, 0, len(ref.Metrics))
		for k := range ref.Metrics {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, name := range names {
			want := ref.Metrics[name]
			got, ok := m.value(name)
			if !ok {
				t.Fatalf("%s: unknown metric %q", ref.ID, name)
			}
			e := (got - want) / want
			errs = append(errs, math.Abs(e))
			t.Logf("%-40s %-16s measured %10.3f  modelled %10.3f  error %+6.1f%%", ref.ID, name, want, got, 100*e)
			if math.Abs(e) > 0.6 {
				t.Errorf("%s %s: modelled %.3f vs measured %.3f (%.0f%% off)", ref.ID, name, got, want, 100*e)
			}
		}
	}
	slices.Sort(errs)
	med := errs[len(errs)/2]
	if len(errs)%2 == 0 {
		med = (errs[len(errs)/2-1] + errs[len(errs)/2]) / 2
	}
	t.Logf("median absolute error over %d figures: %.1f%%", len(errs), 100*med)
	if med > 0.25 {
		t.Errorf("median error %.1f%% exceeds 25%%", 100*med)
	}
}
