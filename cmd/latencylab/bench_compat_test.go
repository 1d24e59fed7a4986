package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/benchmark"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
)

// bench's request function against each server's wire format, on a fake
// clock: TTFT, every inter-chunk gap, TPOT and the output token count are
// exactly what the server's schedule makes them.
func TestBenchMeasuresEachServerFormat(t *testing.T) {
	const ttft, gap = 150 * time.Millisecond, 20 * time.Millisecond
	cases := []struct {
		name    string
		formats []upstreamtest.Format
		fake    upstreamtest.Fake
		// the answer the server writes: tokens, and tokens per chunk
		tokens, perChunk func(upstreamtest.Format) int
	}{
		{name: "a token per chunk", tokens: fixed(6), perChunk: fixed(1)},
		{name: "tokens merged into chunks", formats: []upstreamtest.Format{upstreamtest.VLLM, upstreamtest.SGLang},
			fake: upstreamtest.Fake{StreamInterval: 2}, tokens: fixed(6), perChunk: fixed(2)},
		{name: "no usage in the stream", fake: upstreamtest.Fake{NoUsage: true}, tokens: fixed(6), perChunk: fixed(1)},
		{name: "answer ends early without ignore_eos", fake: upstreamtest.Fake{NaturalLength: 4},
			tokens: func(f upstreamtest.Format) int {
				if f.HonoursIgnoreEOS() {
					return 6
				}
				return 4
			}, perChunk: fixed(1)},
	}
	for _, c := range cases {
		formats := c.formats
		if formats == nil {
			formats = upstreamtest.Formats
		}
		for _, format := range formats {
			for _, chat := range []bool{true, false} {
				t.Run(c.name+"/"+string(format)+map[bool]string{true: "/chat", false: "/completions"}[chat], func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						f := c.fake
						f.Format, f.TTFT, f.Gap = format, ttft, gap
						target := benchmark.HTTPTarget{Model: "m", Chat: chat, Count: textmodel.Count,
							Client: &upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(&f), RunningCounts: true}}
						outs, _ := benchmark.RunHTTP(context.Background(), target, []benchmark.Request{{ID: "a", Prompt: "why wait", PromptLen: 2, OutputLen: 6}}, 1)
						o := outs[0]
						n, per := c.tokens(format), c.perChunk(format)
						wantTTFT := ttft + time.Duration(per-1)*gap
						if !o.Success || o.OutputTokens != n || o.TTFT != wantTTFT || o.Latency != ttft+time.Duration(n-1)*gap {
							t.Fatalf("output %+v: want %d tokens, TTFT %v, E2E %v", o, n, wantTTFT, ttft+time.Duration(n-1)*gap)
						}
						if len(o.ITL) != n/per-1 {
							t.Fatalf("%d gaps %v, want %d", len(o.ITL), o.ITL, n/per-1)
						}
						for _, g := range o.ITL {
							if g != time.Duration(per)*gap {
								t.Fatalf("gaps %v, want each %v", o.ITL, time.Duration(per)*gap)
							}
						}
						wantTPOT := float64(n-per) * gap.Seconds() / float64(n-1) * 1000
						if r := benchmark.Compute(outs, time.Second, nil); !near(r.TPOT.Mean, wantTPOT) {
							t.Errorf("TPOT %.4f ms, want %.4f", r.TPOT.Mean, wantTPOT)
						}
					})
				})
			}
		}
	}
}

func fixed(n int) func(upstreamtest.Format) int { return func(upstreamtest.Format) int { return n } }

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// bench --compare-sim end to end against each server's fake: every answer
// counted, the bundled engine modelling the same lengths, and a note when
// the server (Ollama) ended answers before the length asked.
func TestBenchCompareSimAgainstEachServer(t *testing.T) {
	for _, format := range upstreamtest.Formats {
		t.Run(string(format), func(t *testing.T) {
			ts := httptest.NewServer(&upstreamtest.Fake{Format: format, TTFT: 5 * time.Millisecond, Gap: time.Millisecond, NaturalLength: 4})
			defer ts.Close()
			code, out, stderr := runCLI("bench", "--base-url", ts.URL+"/v1", "--json", "--compare-sim",
				"--num-requests", "3", "--input-len", "16", "--output-len", "6", "--max-concurrency", "1")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got struct{ Measured, Simulated map[string]any }
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want, note := 18.0, ""
			if !format.HonoursIgnoreEOS() {
				want, note = 12.0, "ended 3 of 3 answers before the output length asked"
			}
			if got.Measured["completed"] != 3.0 || got.Measured["total_output_tokens"] != want || got.Simulated["total_output_tokens"] != want {
				t.Errorf("measured %v completed, %v tokens; simulated %v tokens; want 3, %v, %v",
					got.Measured["completed"], got.Measured["total_output_tokens"], got.Simulated["total_output_tokens"], want, want)
			}
			if ttft, _ := got.Measured["mean_ttft_ms"].(float64); ttft < 5 {
				t.Errorf("mean TTFT %v ms, below the server's 5 ms", ttft)
			}
			if (note == "") != (stderr == "") || !strings.Contains(stderr, note) || strings.Count(stderr, "\n") > 1 {
				t.Errorf("stderr %q, want the note %q", stderr, note)
			}
		})
	}
}
