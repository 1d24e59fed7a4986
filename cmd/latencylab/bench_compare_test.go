package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// bench --compare-sim prints the server's figures beside the bundled
// engine's for the same workload: the simulated side is exactly what sim
// prints, and each error is (simulated − measured) ÷ measured.
func TestBenchCompareSim(t *testing.T) {
	base := appServer(t)
	work := []string{"--num-requests", "12", "--input-len", "200", "--output-len", "10", "--max-concurrency", "4"}

	code, out, stderr := runCLI(append([]string{"bench", "--base-url", base, "--compare-sim", "--json"}, work...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Measured, Simulated map[string]any
		Profile             string `json:"simulated_profile"`
		Comparison          []compareRow
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	code, simOut, stderr := runCLI(append([]string{"sim", "--json"}, work...)...)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, stderr)
	}
	var sim map[string]any
	if err := json.Unmarshal([]byte(simOut), &sim); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mean_ttft_ms", "mean_tpot_ms", "output_throughput", "p99_e2el_ms"} {
		if got.Simulated[k] != sim[k] {
			t.Errorf("simulated %s = %v, sim prints %v", k, got.Simulated[k], sim[k])
		}
	}
	if got.Profile != "llama-3.1-8b on h100-sxm" || got.Measured["completed"] != 12.0 {
		t.Errorf("profile %q, measured completed %v", got.Profile, got.Measured["completed"])
	}
	if len(got.Comparison) < 10 {
		t.Fatalf("%d comparison rows", len(got.Comparison))
	}
	for _, r := range got.Comparison {
		if r.Measured == 0 {
			if r.ErrorPct != nil {
				t.Errorf("%s: an error against nothing measured", r.Metric)
			}
			continue
		}
		if want := 100 * (r.Simulated - r.Measured) / r.Measured; r.ErrorPct == nil || math.Abs(*r.ErrorPct-want) > 1e-9 {
			t.Errorf("%s: error %v, want %v", r.Metric, r.ErrorPct, want)
		}
	}

	code, table, _ := runCLI(append([]string{"bench", "--base-url", base, "--compare-sim"}, work...)...)
	if code != 0 || !strings.Contains(table, "measured vs bundled engine (llama-3.1-8b on h100-sxm") || !strings.Contains(table, "Mean TTFT (ms)") {
		t.Errorf("table output:\n%s", table)
	}
	code, _, stderr = runCLI(append([]string{"bench", "--base-url", base, "--compare-sim", "--sim-model", "gpt-9"}, work...)...)
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--sim-model") {
		t.Errorf("unknown --sim-model: exit %d, stderr %q", code, stderr)
	}
}
