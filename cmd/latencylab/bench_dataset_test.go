package main

import (
	"encoding/json"
	"fmt"
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

// appServer serves the app's own /v1 on a jump clock, so a bench against it
// takes no wall time.
func appServer(t *testing.T) string {
	t.Helper()
	eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	api, err := newAPI(eng)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(api)
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

// shareGPTFile writes a small ShareGPT-style dataset.
func shareGPTFile(t *testing.T) string {
	t.Helper()
	var convs []string
	for i := range 6 {
		convs = append(convs, fmt.Sprintf(`{"id":"%d","conversations":[{"from":"human","value":%q},{"from":"gpt","value":%q}]}`,
			i, strings.Repeat("how fast is the first token ", 3+i), strings.Repeat("it depends on the prompt ", 2+i)))
	}
	path := filepath.Join(t.TempDir(), "sharegpt.json")
	if err := os.WriteFile(path, []byte("["+strings.Join(convs, ",")+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// bench reads a ShareGPT file or the random dataset, reports request
// goodput against --goodput and saves vLLM's result file.
func TestBenchDatasetGoodputSaveResult(t *testing.T) {
	base := appServer(t)
	data := shareGPTFile(t)
	for _, c := range []struct {
		name string
		args []string
		// check the saved file and the JSON printed
		check func(t *testing.T, saved, printed map[string]any)
	}{
		{name: "sharegpt", args: []string{"--dataset-name", "sharegpt", "--dataset-path", data, "--num-requests", "8", "--goodput", "ttft:100000 e2el:100000"},
			check: func(t *testing.T, saved, printed map[string]any) {
				if saved["completed"] != 8.0 || saved["request_goodput"] != saved["request_throughput"] || saved["request_goodput"] == 0.0 {
					t.Errorf("generous objectives: goodput %v, throughput %v", saved["request_goodput"], saved["request_throughput"])
				}
				if _, ok := saved["ttfts"]; ok {
					t.Error("per-request lists without --save-detailed")
				}
			}},
		{name: "random detailed", args: []string{"--random-input-len", "64", "--random-output-len", "5", "--num-prompts", "4", "--goodput", "ttft:0", "--save-detailed"},
			check: func(t *testing.T, saved, printed map[string]any) {
				if saved["request_goodput"] != 0.0 || printed["request_goodput"] != 0.0 {
					t.Errorf("a 0 ms TTFT objective: goodput %v / %v", saved["request_goodput"], printed["request_goodput"])
				}
				if lens := saved["input_lens"].([]any); len(lens) != 4 || lens[0] != 64.0 {
					t.Errorf("input_lens %v", lens)
				}
				if itls := saved["itls"].([]any); len(itls[0].([]any)) != 4 {
					t.Errorf("itls %v, want 4 gaps for 5 tokens", itls[0])
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"bench", "--base-url", base, "--json", "--save-result", "--result-dir", dir, "--result-filename", "r.json"}, c.args...)
			code, out, stderr := runCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var printed, saved map[string]any
			if err := json.Unmarshal([]byte(out), &printed); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			raw, err := os.ReadFile(filepath.Join(dir, "r.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &saved); err != nil {
				t.Fatal(err)
			}
			if saved["backend"] != "openai" || saved["model_id"] == "" || saved["mean_ttft_ms"] != printed["mean_ttft_ms"] {
				t.Errorf("saved backend %v model %v mean ttft %v, printed %v", saved["backend"], saved["model_id"], saved["mean_ttft_ms"], printed["mean_ttft_ms"])
			}
			c.check(t, saved, printed)
		})
	}
	code, table, stderr := runCLI("bench", "--base-url", base, "--dataset-name", "sharegpt", "--dataset-path", data, "--num-requests", "3", "--goodput", "ttft:100000", "--compare-sim")
	if code != 0 || !strings.Contains(table, "Request goodput (req/s):") || !strings.Contains(table, "Request goodput (req/s)  ") {
		t.Errorf("exit %d %s; table:\n%s", code, stderr, table)
	}
}

// Bad dataset, goodput and result flags exit 2 with one line naming the
// flag, before any request is sent.
func TestBenchDatasetBadFlags(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	_ = os.WriteFile(empty, []byte("[]"), 0o600)
	base := "http://127.0.0.1:1/v1" // nothing listens: a request would fail with exit 1
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--dataset-name", "sonnet"}, "want random or sharegpt"},
		{[]string{"--dataset-name", "sharegpt"}, "needs --dataset-path"},
		{[]string{"--dataset-path", empty}, "takes no file"},
		{[]string{"--dataset-name", "sharegpt", "--dataset-path", filepath.Join(dir, "missing.json")}, "open dataset"},
		{[]string{"--dataset-name", "sharegpt", "--dataset-path", empty, "--model", "m"}, "no conversation that passes"},
		{[]string{"--goodput", "itl:5"}, "KEY one of ttft, tpot, e2el"},
		{[]string{"--goodput", "ttft:-3"}, "milliseconds >= 0"},
		{[]string{"--save-detailed"}, "need --save-result"},
		{[]string{"--sharegpt-output-len", "-1"}, "--sharegpt-output-len"},
	} {
		code, _, stderr := runCLI(append([]string{"bench", "--base-url", base}, c.args...)...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}
