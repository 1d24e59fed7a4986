package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/benchmark"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// badInput is an error the user can fix by changing flags (exit code 2).
type badInput struct{ error }

func badf(format string, args ...any) error { return badInput{fmt.Errorf(format, args...)} }

// exitCode reports err on one stderr line and maps it to 1 or 2.
func exitCode(stderr io.Writer, cmd string, err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "latencylab %s: %s\n", cmd, plainMessage(err))
	if errors.As(err, &badInput{}) {
		return 2
	}
	return 1
}

// workloadFlags are the dataset and traffic flags sim and bench share.
type workloadFlags struct {
	w           benchmark.Workload
	rate        string
	percentiles string
	json        bool
}

func (f *workloadFlags) register(fs *flag.FlagSet) {
	f.w = benchmark.DefaultWorkload()
	fs.IntVar(&f.w.InputLen, "input-len", f.w.InputLen, "mean prompt length in tokens")
	fs.IntVar(&f.w.OutputLen, "output-len", f.w.OutputLen, "mean output length in tokens (generated with ignore_eos)")
	fs.Float64Var(&f.w.RangeRatio, "range-ratio", 0, "lengths uniform in [L·(1−r), L·(1+r)], 0 <= r < 1")
	fs.IntVar(&f.w.NumRequests, "num-requests", f.w.NumRequests, "number of requests")
	fs.StringVar(&f.rate, "request-rate", "inf", "requests per second (Poisson/gamma arrivals) or inf to send all at once")
	fs.Float64Var(&f.w.Burstiness, "burstiness", 1, "gamma shape of arrival gaps: 1 Poisson, <1 burstier, >1 smoother")
	fs.IntVar(&f.w.MaxConcurrency, "max-concurrency", 0, "most requests in flight at once (0: unlimited)")
	fs.IntVar(&f.w.SharedPrefixLen, "shared-prefix-len", 0, "tokens of a prefix every prompt shares")
	fs.Uint64Var(&f.w.Seed, "seed", 0, "random seed for lengths, prompts and arrivals")
	fs.StringVar(&f.percentiles, "percentiles", "99", "comma-separated percentiles to report, e.g. 50,90,99")
	fs.BoolVar(&f.json, "json", false, "print vllm bench serve's JSON keys instead of the table")
}

// workload finishes parsing and validates.
func (f *workloadFlags) workload() (benchmark.Workload, error) {
	rate, err := benchmark.ParseRate(f.rate)
	if err != nil {
		return f.w, badInput{err}
	}
	f.w.RequestRate = rate
	if f.w.Percentiles, err = benchmark.ParsePercentiles(f.percentiles); err != nil {
		return f.w, badInput{err}
	}
	if err := f.w.Validate(); err != nil {
		return f.w, badInput{err}
	}
	return f.w, nil
}

// sample draws the prompts from real text: the text model's corpus,
// composed into one long passage and tokenized once.
func sample(w benchmark.Workload) ([]benchmark.Request, error) {
	reqs, err := benchmark.Sample(w, textmodel.Default(), promptCorpus())
	if err != nil {
		return nil, fmt.Errorf("sample prompts: %w", err)
	}
	return reqs, nil
}

// dataset is sample's requests drawn one at a time, for the virtual clock.
func dataset(w benchmark.Workload) (*benchmark.Dataset, error) {
	d, err := benchmark.NewDataset(w, textmodel.Default(), promptCorpus())
	if err != nil {
		return nil, fmt.Errorf("sample prompts: %w", err)
	}
	return d, nil
}

// promptCorpus is the text prompts are cut from.
func promptCorpus() string {
	return textmodel.Compose(textmodel.ComposeRequest{
		Messages:     []textmodel.Message{{Role: textmodel.RoleUser, Content: "Tell me about LLM serving latency."}},
		ForcedTokens: 8192,
	}).Text
}

// report prints the result as the table or JSON.
func report(stdout io.Writer, w benchmark.Workload, r benchmark.Result, asJSON bool) error {
	r.NumPrompts, r.RequestRate, r.Burstiness, r.MaxConcurrency = w.NumRequests, w.RequestRate, w.Burstiness, w.MaxConcurrency
	if asJSON {
		return r.WriteJSON(stdout)
	}
	return r.WriteTable(stdout)
}

// engineFlags are the engine configuration flags of sim.
type engineFlags struct {
	hardware, model, modelConfig, hardwareConfig string
	precision, policy, batchWait                 string
	tp, maxNumSeqs, maxBatchedTokens, batchSize  int
	chunkedPrefill, prefixCache                  bool
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	d := engine.DefaultConfig()
	fs.StringVar(&f.hardware, "hardware", d.Hardware.Name, "GPU profile: "+strings.Join(engine.HardwareNames(), ", "))
	fs.StringVar(&f.model, "model", d.Model.Name, "model profile: "+strings.Join(engine.ModelNames(), ", "))
	fs.StringVar(&f.modelConfig, "model-config", "", "Hugging Face config.json to use instead of --model")
	fs.StringVar(&f.hardwareConfig, "hardware-config", "", "GPU JSON to use instead of --hardware")
	fs.StringVar(&f.precision, "precision", string(d.Precision), "weight precision: bf16, fp8, int4")
	fs.IntVar(&f.tp, "tp", d.TP, "tensor parallelism: 1, 2, 4 or 8")
	fs.StringVar(&f.policy, "policy", string(d.Policy), "scheduler: sequential, static or continuous")
	fs.IntVar(&f.maxNumSeqs, "max-num-seqs", d.MaxNumSeqs, "most running sequences (continuous)")
	fs.IntVar(&f.maxBatchedTokens, "max-batched-tokens", d.MaxNumBatchedTokens, "token budget per step (continuous)")
	fs.BoolVar(&f.chunkedPrefill, "chunked-prefill", d.ChunkedPrefill, "split long prompts across steps (continuous)")
	fs.BoolVar(&f.prefixCache, "prefix-cache", d.PrefixCaching, "reuse KV blocks of shared prompt prefixes")
	fs.IntVar(&f.batchSize, "batch-size", d.BatchSize, "batch size (static)")
	fs.StringVar(&f.batchWait, "batch-wait", d.BatchWait.String(), "longest wait to fill a batch, e.g. 50ms (static)")
}

// config builds and validates the engine configuration.
func (f *engineFlags) config() (engine.Config, error) {
	cfg := engine.DefaultConfig()
	var err error
	if f.hardwareConfig != "" {
		cfg.Hardware, err = loadFile(f.hardwareConfig, engine.LoadHardwareConfig)
	} else {
		cfg.Hardware, err = engine.LookupHardware(f.hardware)
	}
	if err != nil {
		return cfg, badInput{err}
	}
	if f.modelConfig != "" {
		cfg.Model, err = loadFile(f.modelConfig, engine.LoadModelConfig)
	} else {
		cfg.Model, err = engine.LookupModel(f.model)
	}
	if err != nil {
		return cfg, badInput{err}
	}
	cfg.Precision = engine.Precision(strings.ToLower(f.precision))
	cfg.Policy = engine.Policy(strings.ToLower(f.policy))
	cfg.TP, cfg.MaxNumSeqs, cfg.MaxNumBatchedTokens, cfg.BatchSize = f.tp, f.maxNumSeqs, f.maxBatchedTokens, f.batchSize
	cfg.ChunkedPrefill, cfg.PrefixCaching = f.chunkedPrefill, f.prefixCache
	if cfg.BatchWait, err = parseWait(f.batchWait); err != nil {
		return cfg, badInput{err}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, badInput{err}
	}
	return cfg, nil
}

// parseWait reads a duration ("50ms") or a bare number of milliseconds.
func parseWait(s string) (time.Duration, error) {
	if ms, err := strconv.ParseFloat(s, 64); err == nil && ms >= 0 && ms <= 3_600_000 {
		return time.Duration(ms * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > time.Hour {
		return 0, fmt.Errorf("batch wait %q is not valid: want a duration from 0 to 1h such as 50ms", s)
	}
	return d, nil
}

func loadFile[T any](path string, load func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	v, err := load(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// checkContext refuses a workload whose longest request cannot fit the
// model's context, naming the largest lengths that would.
func checkContext(w benchmark.Workload, maxCtx int) error {
	longestIn := int(math.Ceil(float64(w.InputLen)*(1+w.RangeRatio))) + w.SharedPrefixLen
	longestOut := int(math.Ceil(float64(w.OutputLen) * (1 + w.RangeRatio)))
	if longestIn+longestOut > maxCtx {
		return badf("the longest request needs %d prompt + %d output = %d tokens, over the model's context of %d: lower --input-len, --output-len, --range-ratio or --shared-prefix-len",
			longestIn, longestOut, longestIn+longestOut, maxCtx)
	}
	return nil
}

// runSim runs a vllm-bench-serve workload on the engine's virtual clock.
func runSim(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	var ef engineFlags
	var wf workloadFlags
	ef.register(fs)
	wf.register(fs)
	return exitCode(stderr, "sim", func() error {
		if help, err := parseFlags(fs, args, stdout); help || err != nil {
			return err
		}
		cfg, err := ef.config()
		if err != nil {
			return err
		}
		w, err := wf.workload()
		if err != nil {
			return err
		}
		if err := checkContext(w, cfg.Model.MaxContextLen); err != nil {
			return err
		}
		d, err := dataset(w)
		if err != nil {
			return err
		}
		res, err := benchmark.Simulate(cfg, d, w.MaxConcurrency, w.Percentiles)
		if err != nil {
			// Simulate only fails on a request the engine refuses, such as
			// one needing more KV cache than the GPU holds.
			return badInput{err}
		}
		if !wf.json {
			fmt.Fprintf(stdout, "virtual clock: %s on %s, %s, tp %d, %s policy\n",
				cfg.Model.Name, cfg.Hardware.Name, cfg.Precision, cfg.TP, cfg.Policy)
		}
		return report(stdout, w, res, wf.json)
	}())
}
