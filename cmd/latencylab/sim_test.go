package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// Bad input exits 2 with exactly one stderr line that names the problem
// and what would be valid.
func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(badJSON, []byte("{not json"), 0o600)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--hardware", "tpu-v9"}, "h100-sxm"},
		{[]string{"sim", "--model", "gpt-5"}, "llama-3.1-8b"},
		{[]string{"sim", "--model", "llama-3.1-70b", "--hardware", "l4"}, "does not fit"},
		{[]string{"sim", "--tp", "3"}, "1, 2, 4, 8"},
		{[]string{"sim", "--precision", "fp3"}, "bf16"},
		{[]string{"sim", "--policy", "random"}, "continuous"},
		{[]string{"sim", "--input-len", "-5"}, "want 1.."},
		{[]string{"sim", "--output-len", "0"}, "want 1.."},
		{[]string{"sim", "--num-requests", "0"}, "want 1.."},
		{[]string{"sim", "--num-requests", "10000001"}, "want 1..10000000"},
		{[]string{"sim", "--request-rate", "fast"}, "inf or a positive number"},
		{[]string{"sim", "--burstiness", "0"}, "> 0"},
		{[]string{"sim", "--range-ratio", "1.5"}, "0 <= r < 1"},
		{[]string{"sim", "--max-concurrency", "-1"}, "0 (unlimited)"},
		{[]string{"sim", "--percentiles", "50,abc"}, "0..100"},
		{[]string{"sim", "--batch-wait", "soon"}, "50ms"},
		{[]string{"sim", "--input-len", "130000", "--output-len", "2000", "--num-requests", "10"}, "over the model's context of 131072"},
		{[]string{"sim", "--model-config", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"sim", "--hardware-config", badJSON}, "bad.json"},
		{[]string{"sim", "--nope"}, "-h"},
		{[]string{"sim", "extra"}, "unexpected argument"},
		{[]string{"bench"}, "--base-url is required"},
		{[]string{"bench", "--base-url", "ftp://x"}, "http(s)://"},
		{[]string{"bench", "--base-url", "http://127.0.0.1:1/v1", "--endpoint", "grpc"}, "completions or chat"},
		{[]string{"profiles", "--wide"}, "-h"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, stderr := runCLI(c.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Fatalf("stderr is not one line: %q", stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Fatalf("stderr %q does not mention %q", stderr, c.want)
			}
			if internalName.MatchString(stderr) {
				t.Errorf("stderr %q names an internal component", stderr)
			}
		})
	}
}

// Prompts are drawn one at a time, so a workload past the old 67M
// prompt-token cap runs: 700 prompts of 100,000 tokens.
func TestSimRunsPastTheOldPromptCap(t *testing.T) {
	code, out, stderr := runCLI("sim", "--num-requests", "700", "--input-len", "100000", "--output-len", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if m["completed"] != 700.0 || m["total_input_tokens"] != 70_000_000.0 {
		t.Errorf("completed %v, input tokens %v; want 700 and 70,000,000", m["completed"], m["total_input_tokens"])
	}
}

func TestSimJSONHasVLLMKeys(t *testing.T) {
	code, out, stderr := runCLI("sim", "--num-requests", "40", "--input-len", "256", "--output-len", "16",
		"--request-rate", "20", "--max-concurrency", "8", "--percentiles", "50,90,99", "--json", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"duration", "completed", "total_input_tokens", "total_output_tokens",
		"request_throughput", "output_throughput", "total_token_throughput",
		"mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p50_ttft_ms", "p90_ttft_ms", "p99_ttft_ms",
		"mean_tpot_ms", "p99_tpot_ms", "mean_itl_ms", "p99_itl_ms", "mean_e2el_ms", "p99_e2el_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	if m["completed"] != 40.0 || m["total_output_tokens"] != 640.0 || m["max_concurrency"] != 8.0 || m["request_rate"] != 20.0 {
		t.Errorf("completed %v output %v conc %v rate %v", m["completed"], m["total_output_tokens"], m["max_concurrency"], m["request_rate"])
	}
	// Same seed, same virtual-clock result.
	_, again, _ := runCLI("sim", "--num-requests", "40", "--input-len", "256", "--output-len", "16",
		"--request-rate", "20", "--max-concurrency", "8", "--percentiles", "50,90,99", "--json", "--seed", "3")
	if again != out {
		t.Error("sim is not deterministic for a seed")
	}
}

func TestSimTableAndProfiles(t *testing.T) {
	code, out, stderr := runCLI("sim", "--num-requests", "20", "--input-len", "128", "--output-len", "8", "--policy", "static")
	if code != 0 || !strings.Contains(out, "Serving Benchmark Result") || !strings.Contains(out, "Successful requests:                     20") {
		t.Fatalf("exit %d stderr %q out:\n%s", code, stderr, out)
	}
	code, out, _ = runCLI("profiles", "--json")
	var p profilesOut
	if code != 0 || json.Unmarshal([]byte(out), &p) != nil {
		t.Fatalf("profiles --json: exit %d\n%s", code, out)
	}
	var llama, big profileModel
	for _, m := range p.Models {
		switch m.Name {
		case "llama-3.1-8b":
			llama = m
		case "llama-3.1-70b":
			big = m
		}
	}
	// Llama 3.1 8B: 32 layers × 8 KV heads × 128 dims × 2 (K, V) × 2 bytes.
	if llama.KVBytesPerToken != 131072 || llama.KVTokens["h100-sxm"] == 0 {
		t.Errorf("llama-3.1-8b %+v", llama)
	}
	if _, fits := big.KVTokens["h100-sxm"]; fits || big.NoFit["h100-sxm"] == "" {
		t.Errorf("70B in BF16 must not fit one H100: %+v", big)
	}
	code, out, _ = runCLI("profiles")
	if code != 0 || !strings.Contains(out, "does not fit") || !strings.Contains(out, "h100-sxm") {
		t.Fatalf("profiles table:\n%s", out)
	}
}

// bench against this app's own API over a live engine (fake clock, so the
// engine paces nothing) measures the same workload end to end.
func TestBenchAgainstOwnAPI(t *testing.T) {
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	api, err := newAPI(eng)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(api)
	defer ts.Close()
	for _, endpoint := range []string{"completions", "/v1/chat/completions"} {
		code, out, stderr := runCLI("bench", "--base-url", ts.URL+"/v1", "--endpoint", endpoint,
			"--num-requests", "12", "--input-len", "200", "--output-len", "10", "--max-concurrency", "4", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", endpoint, code, stderr)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%s: %v\n%s", endpoint, err, out)
		}
		if m["completed"] != 12.0 || m["failed"] != 0.0 || m["total_output_tokens"] != 120.0 {
			t.Fatalf("%s: completed %v failed %v output %v", endpoint, m["completed"], m["failed"], m["total_output_tokens"])
		}
		if m["mean_tpot_ms"].(float64) < 0 || m["mean_e2el_ms"].(float64) < m["mean_ttft_ms"].(float64) {
			t.Fatalf("%s: inconsistent latencies %v", endpoint, m)
		}
	}
	st := eng.Stats()
	if st.FinishedRequests != 24 || st.GenerationTokens != 240 {
		t.Fatalf("engine saw %d requests, %d tokens; want 24, 240", st.FinishedRequests, st.GenerationTokens)
	}
	// A server that is down is a runtime failure (1), not bad input.
	code, _, stderr := runCLI("bench", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--num-requests", "2")
	if code != 1 || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("down server: exit %d stderr %q", code, stderr)
	}
}
