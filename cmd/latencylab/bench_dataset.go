package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/benchmark"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// datasetFlags are bench's dataset, goodput and result-file flags, spelled
// as `vllm bench serve` spells them.
type datasetFlags struct {
	name, path   string
	shareGPTOut  int
	goodput      string
	save, detail bool
	dir, file    string
	label        string
}

func (f *datasetFlags) register(fs *flag.FlagSet, wf *workloadFlags) {
	fs.StringVar(&f.name, "dataset-name", "random", "random (lengths from --random-input-len/--random-output-len) or sharegpt (conversations from --dataset-path)")
	fs.StringVar(&f.path, "dataset-path", "", "ShareGPT-style JSON file for --dataset-name sharegpt")
	fs.IntVar(&f.shareGPTOut, "sharegpt-output-len", 0, "fix every sharegpt output length (0: the answer's length in the file)")
	// vLLM's dataset-specific spellings of the shared length flags.
	fs.IntVar(&wf.w.InputLen, "random-input-len", wf.w.InputLen, "same as --input-len")
	fs.IntVar(&wf.w.OutputLen, "random-output-len", wf.w.OutputLen, "same as --output-len")
	fs.Float64Var(&wf.w.RangeRatio, "random-range-ratio", 0, "same as --range-ratio")
	fs.IntVar(&wf.w.SharedPrefixLen, "random-prefix-len", 0, "same as --shared-prefix-len")
	fs.IntVar(&wf.w.NumRequests, "num-prompts", wf.w.NumRequests, "same as --num-requests")
	fs.StringVar(&f.goodput, "goodput", "", `service-level objectives for request goodput, e.g. "ttft:500 tpot:50" (keys ttft, tpot, e2el; milliseconds)`)
	fs.BoolVar(&f.save, "save-result", false, "save the result as vllm bench serve's JSON file")
	fs.BoolVar(&f.detail, "save-detailed", false, "with --save-result, add per-request ttfts, itls, lengths, texts and errors")
	fs.StringVar(&f.dir, "result-dir", "", "directory for --save-result (default: the current one)")
	fs.StringVar(&f.file, "result-filename", "", "file name for --save-result (default: {label}-{rate}qps-{model}-{date}.json)")
	fs.StringVar(&f.label, "label", "", "label at the head of the saved result's name (default: the backend)")
}

// check validates the dataset choice and objectives, before any request.
func (f *datasetFlags) check(w *benchmark.Workload) error {
	switch f.name {
	case "random":
		if f.path != "" {
			return badf("--dataset-path is for --dataset-name sharegpt; the random dataset takes no file")
		}
	case "sharegpt":
		if f.path == "" {
			return badf("--dataset-name sharegpt needs --dataset-path FILE (a ShareGPT-style JSON list)")
		}
	default:
		return badf("dataset %q is not valid: want random or sharegpt", f.name)
	}
	if f.shareGPTOut < 0 {
		return badf("--sharegpt-output-len %d is not valid: want 0 (from the file) or more", f.shareGPTOut)
	}
	if (f.detail || f.dir != "" || f.file != "") && !f.save {
		return badf("--save-detailed, --result-dir and --result-filename need --save-result")
	}
	if f.goodput != "" {
		g, err := benchmark.ParseGoodput(f.goodput)
		if err != nil {
			return badInput{err}
		}
		w.Goodput = g
	}
	return nil
}

// requests draws the workload's requests from the chosen dataset.
func (f *datasetFlags) requests(w benchmark.Workload) ([]benchmark.Request, error) {
	if f.name == "random" {
		return sample(w)
	}
	file, err := os.Open(f.path)
	if err != nil {
		return nil, badf("open dataset: %v", err)
	}
	defer file.Close()
	reqs, err := benchmark.LoadShareGPT(file, textmodel.Default(), w, f.shareGPTOut)
	if err != nil {
		return nil, badf("%s: %v", filepath.Base(f.path), err)
	}
	return reqs, nil
}

// saveResult writes the measured result where --save-result says and
// names the file on stdout unless the output is JSON.
func (f *datasetFlags) saveResult(stdout io.Writer, now time.Time, chat bool, model string, w benchmark.Workload, r benchmark.Result, outs []benchmark.Output, quiet bool) error {
	if !f.save {
		return nil
	}
	meta := benchmark.SaveMeta{Date: now.Format("20060102-150405"), Backend: "openai", Label: f.label, ModelID: model, Tokenizer: model}
	if chat {
		meta.Backend = "openai-chat"
	}
	name := f.file
	if name == "" {
		name = benchmark.ResultFilename(meta, w.RequestRate, w.MaxConcurrency)
	}
	if f.dir != "" {
		if err := os.MkdirAll(f.dir, 0o755); err != nil {
			return fmt.Errorf("save result: %w", err)
		}
		name = filepath.Join(f.dir, name)
	}
	r.NumPrompts, r.RequestRate, r.Burstiness, r.MaxConcurrency = w.NumRequests, w.RequestRate, w.Burstiness, w.MaxConcurrency
	var b strings.Builder
	if err := benchmark.WriteSaved(&b, meta, r, outs, f.detail); err != nil {
		return fmt.Errorf("save result: %w", err)
	}
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("save result: %w", err)
	}
	if !quiet {
		fmt.Fprintf(stdout, "saved the result to %s\n", name)
	}
	return nil
}
