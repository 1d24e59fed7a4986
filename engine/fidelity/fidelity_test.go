package fidelity

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine"
)

// TestHeldOutError replays every reference on the current engine and holds
// the engine to the bar on the figures it was never fitted to: a
// median absolute error of at most 10%, and no figure off by 2× or more.
func TestHeldOutError(t *testing.T) {
	rep := evaluateShipped(t)
	for _, r := range rep.Rows {
		mark := "fit "
		if r.HeldOut() {
			mark = "HELD"
		}
		t.Logf("%s %-38s %-15s measured %10.3f modelled %10.3f error %+6.1f%%", mark, r.Run.ID, r.Metric, r.Measured, r.Modelled, 100*r.Error())
	}
	t.Logf("%d figures, %d held out; median |error| held out %.1f%%, fitted %.1f%%, all %.1f%%; worst held out %s %s ×%.2f",
		len(rep.Rows), rep.HeldOutCount(), 100*rep.HeldOutMedian, 100*rep.FittedMedian, 100*rep.AllMedian,
		rep.WorstHeldOut.Run.ID, rep.WorstHeldOut.Metric, rep.WorstHeldOut.Factor())
	if rep.HeldOutMedian > 0.10 {
		t.Errorf("held-out median error %.1f%% exceeds 10%%", 100*rep.HeldOutMedian)
	}
	for _, r := range rep.Rows {
		if r.HeldOut() && r.Factor() >= 2 {
			t.Errorf("%s %s: modelled %.3f vs measured %.3f, off by ×%.2f", r.Run.ID, r.Metric, r.Modelled, r.Measured, r.Factor())
		}
	}
}

// evaluateShipped replays the reference set shipped with the binary.
func evaluateShipped(t *testing.T) *Report {
	t.Helper()
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(set)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestHoldOutIsAThird keeps the held-out share of figures honest: about a
// third of the set, chosen by whole source.
func TestHoldOutIsAThird(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	total, held := 0, 0
	heldSources := map[string]bool{}
	for _, s := range set.Sources {
		heldSources[s.ID] = s.HeldOut
	}
	for _, r := range set.Runs {
		total += len(r.Metrics)
		if heldSources[r.Source] {
			held += len(r.Metrics)
		}
	}
	if share := float64(held) / float64(total); share < 0.25 || share > 0.45 {
		t.Errorf("%d of %d figures held out (%.0f%%), want about a third", held, total, 100*share)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{0.3}, 0.3},
		{[]float64{0.3, 0.1}, 0.2},
		{[]float64{0.5, 0.1, 0.3}, 0.3},
	} {
		if got := median(c.in); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("median(%v) = %g, want %g", c.in, got, c.want)
		}
	}
}

func TestFactor(t *testing.T) {
	for _, c := range []struct {
		measured, modelled, want float64
	}{
		{10, 10, 1}, {10, 20, 2}, {10, 5, 2}, {10, 0, math.Inf(1)},
	} {
		if got := (Row{Measured: c.measured, Modelled: c.modelled}).Factor(); got != c.want {
			t.Errorf("Factor(%g, %g) = %g, want %g", c.measured, c.modelled, got, c.want)
		}
	}
}

// TestParseRejects checks that a malformed reference set is refused with
// a reason rather than replayed.
func TestParseRejects(t *testing.T) {
	src := `"sources":[{"id":"s","url":"https://example.org"}]`
	for _, c := range []struct{ name, doc, want string }{
		{"not json", `{`, "reference set"},
		{"unknown field", `{"refs":[]}`, "unknown field"},
		{"empty", `{` + src + `,"references":[]}`, "no references"},
		{"unknown source", `{` + src + `,"references":[{"id":"a","source":"x","input_len":1,"output_len":1,"num_prompts":1,"metrics":{"duration_s":1}}]}`, "unknown source"},
		{"unknown metric", `{` + src + `,"references":[{"id":"a","source":"s","input_len":1,"output_len":1,"num_prompts":1,"metrics":{"speed":1}}]}`, "unknown figure"},
		{"negative figure", `{` + src + `,"references":[{"id":"a","source":"s","input_len":1,"output_len":1,"num_prompts":1,"metrics":{"duration_s":-1}}]}`, "positive"},
		{"lengths differ", `{` + src + `,"references":[{"id":"a","source":"s","input_lens":[1,2],"output_lens":[1],"metrics":{"duration_s":1}}]}`, "output lengths"},
		{"negative limits", `{` + src + `,"references":[{"id":"a","source":"s","input_len":1,"output_len":1,"num_prompts":1,"max_num_seqs":-1,"metrics":{"duration_s":1}}]}`, "must not be negative"},
		{"too many", `{` + src + `,"references":[{"id":"a","source":"s","input_len":1,"output_len":1,"num_prompts":99999,"metrics":{"duration_s":1}}]}`, "out of range"},
		{"repeated id", `{` + src + `,"references":[{"id":"a","source":"s","input_len":1,"output_len":1,"num_prompts":1,"metrics":{"duration_s":1}},{"id":"a","source":"s","input_len":1,"output_len":1,"num_prompts":1,"metrics":{"duration_s":1}}]}`, "repeated"},
	} {
		_, err := Parse(strings.NewReader(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// FuzzParse feeds arbitrary documents to the parser: it must return a set
// that validates or an error, never panic.
func FuzzParse(f *testing.F) {
	f.Add(string(referencesJSON))
	f.Add(`{"sources":[{"id":"s","url":"u"}],"references":[{"id":"a","source":"s","input_lens":[3],"output_lens":[0],"metrics":{"median_tpot_ms":1}}]}`)
	f.Add(`{"references":null}`)
	f.Fuzz(func(t *testing.T, doc string) {
		s, err := Parse(strings.NewReader(doc))
		if err == nil && s.Validate() != nil {
			t.Fatalf("Parse accepted a set that does not validate")
		}
	})
}

// TestServedRunsPayTheFrontEnd checks that a lone request measured through
// a server pays the front end's fixed latency, its admission and the
// streaming of its first token on its first-token and end-to-end figures,
// and an offline run does not, while the gaps between tokens stay the
// engine's own (the loop streams a token far faster than a step).
func TestServedRunsPayTheFrontEnd(t *testing.T) {
	run := Run{ID: "r", Hardware: "h100-sxm", Model: "llama-3.1-8b", Precision: "bf16", TP: 1,
		InputLen: 256, OutputLen: 16, NumPrompts: 1,
		Metrics: map[string]float64{"median_ttft_ms": 1, "median_e2e_ms": 1, "median_itl_ms": 1}}
	offline, err := run.Replay()
	if err != nil {
		t.Fatal(err)
	}
	run.Served = true
	served, err := run.Replay()
	if err != nil {
		t.Fatal(err)
	}
	want := float64(FrontendOverhead+FrontendPerRequest+FrontendPerToken) / 1e6
	for _, c := range []struct {
		metric string
		extra  float64
	}{{"median_ttft_ms", want}, {"median_e2e_ms", want}, {"median_itl_ms", 0}} {
		if got := served[c.metric] - offline[c.metric]; math.Abs(got-c.extra) > 1e-6 {
			t.Errorf("%s: served %.3f − offline %.3f = %.3f ms, want %.3f", c.metric, served[c.metric], offline[c.metric], got, c.extra)
		}
	}
}

// TestRunConfig checks that a run's server settings reach the engine, and
// that a run without them keeps the engine's defaults.
func TestRunConfig(t *testing.T) {
	def := engine.DefaultConfig()
	for _, c := range []struct {
		name                  string
		run                   Run
		wantSeqs, wantBudget  int
		wantSteps, wantLayers int
	}{
		{"defaults", Run{Hardware: "h100-sxm", Model: "llama-3.1-8b", Precision: "bf16", TP: 1},
			def.MaxNumSeqs, def.MaxNumBatchedTokens, 0, 32},
		{"server limits and multi-step", Run{Hardware: "l4", Precision: "bf16", TP: 1,
			ModelConfig: []byte(`{"num_hidden_layers":24,"hidden_size":896,"num_attention_heads":14,"num_key_value_heads":2,"intermediate_size":4864,"vocab_size":151936,"tie_word_embeddings":true,"max_position_embeddings":32768}`),
			MaxNumSeqs:  256, MaxNumBatchedTokens: 2048, NumSchedulerSteps: 10},
			256, 2048, 10, 24},
	} {
		cfg, err := c.run.Config()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cfg.MaxNumSeqs != c.wantSeqs || cfg.MaxNumBatchedTokens != c.wantBudget ||
			cfg.NumSchedulerSteps != c.wantSteps || cfg.Model.NumLayers != c.wantLayers {
			t.Errorf("%s: seqs %d, budget %d, steps %d, layers %d; want %d, %d, %d, %d", c.name,
				cfg.MaxNumSeqs, cfg.MaxNumBatchedTokens, cfg.NumSchedulerSteps, cfg.Model.NumLayers,
				c.wantSeqs, c.wantBudget, c.wantSteps, c.wantLayers)
		}
	}
}

// TestMI300XNoteHolds keeps the set's note on AMD's MI300X runs true: it
// says the engine gives 17.3 s for one prompt and grows about 1% from one
// prompt to four, so a change to the cost model that moves either must
// rewrite the note.
func TestMI300XNoteHolds(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	modelled := map[string]float64{}
	for i := range set.Runs {
		r := &set.Runs[i]
		if !strings.HasPrefix(r.ID, "amd-mi300x-vllm0.10.2-") {
			continue
		}
		got, err := r.Replay()
		if err != nil {
			t.Fatal(err)
		}
		modelled[strings.TrimPrefix(r.ID, "amd-mi300x-vllm0.10.2-llama70b-fp8-tp8-")] = got["mean_e2e_ms"]
	}
	for _, c := range []struct {
		name     string
		got      float64
		min, max float64
	}{
		{"one prompt (s, note says 17.3)", modelled["bs1"] / 1000, 17.25, 17.35},
		{"growth from one prompt to four (note says about 1%)", modelled["bs4"]/modelled["bs1"] - 1, 0.005, 0.02},
	} {
		if !(c.got >= c.min && c.got <= c.max) {
			t.Errorf("%s: %.4f, want %.4f..%.4f", c.name, c.got, c.min, c.max)
		}
	}
}

// TestOutputThroughputOfOneRequest checks the throughput figure against
// its definition: for one request alone, the tokens it generated over its
// end-to-end time, so a speed quoted as tokens per second of one
// generate call compares with the same thing.
func TestOutputThroughputOfOneRequest(t *testing.T) {
	for _, c := range []struct {
		name    string
		in, out int
	}{
		{"short prompt", 1, 64},
		{"long prompt", 6144, 32},
	} {
		run := Run{ID: "r", Hardware: "a100-80g", Model: "qwen2.5-7b", Precision: "bf16", TP: 1,
			InputLen: c.in, OutputLen: c.out, NumPrompts: 1,
			Metrics: map[string]float64{"output_throughput": 1, "mean_e2e_ms": 1}}
		got, err := run.Replay()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := float64(c.out) / (got["mean_e2e_ms"] / 1000)
		if math.Abs(got["output_throughput"]-want) > 1e-9*want {
			t.Errorf("%s: output_throughput %.6f, want %d tokens / %.3f ms = %.6f", c.name, got["output_throughput"], c.out, got["mean_e2e_ms"], want)
		}
	}
}

// TestQwenNoteHolds keeps the set's note on the Qwen team's A100 table
// true: within 4% on the 7B and 14B up to 14336-token prompts, the 14B 8%
// slow at 30720, and the 72B at TP 4 between 6 and 14% fast.
func TestQwenNoteHolds(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var smallErrs, bigErrs []float64
	var slow14b float64
	for i := range set.Runs {
		r := &set.Runs[i]
		if r.Source != "qwen25-speed-vllm-a100" {
			continue
		}
		got, err := r.Replay()
		if err != nil {
			t.Fatal(err)
		}
		e := (got["output_throughput"] - r.Metrics["output_throughput"]) / r.Metrics["output_throughput"]
		switch {
		case strings.Contains(r.ID, "-72b-"):
			bigErrs = append(bigErrs, e)
		case strings.Contains(r.ID, "-14b-") && r.InputLen == 30720:
			slow14b = e
		case (strings.Contains(r.ID, "-7b-") || strings.Contains(r.ID, "-14b-")) && r.InputLen <= 14336:
			smallErrs = append(smallErrs, e)
		}
	}
	if len(smallErrs) != 6 || len(bigErrs) != 4 {
		t.Fatalf("found %d 7B/14B runs up to 14336 tokens and %d 72B runs, want 6 and 4", len(smallErrs), len(bigErrs))
	}
	for _, e := range smallErrs {
		if math.Abs(e) > 0.04 {
			t.Errorf("7B/14B up to 14336 tokens: error %+.1f%%, note says within 4%%", 100*e)
		}
	}
	if !(slow14b <= -0.075 && slow14b > -0.085) {
		t.Errorf("14B at 30720 tokens: error %+.1f%%, note says 8%% slow", 100*slow14b)
	}
	lo, hi := slices.Min(bigErrs), slices.Max(bigErrs)
	if !(lo >= 0.055 && lo < 0.065 && hi >= 0.135 && hi < 0.145) {
		t.Errorf("72B at TP 4: errors %+.1f%% to %+.1f%%, note says 6 to 14%% fast", 100*lo, 100*hi)
	}
}
