package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/latencylab/latencylab/engine"
)

// profileHardware is one GPU in the profiles listing.
type profileHardware struct {
	engine.Hardware
}

// profileModel is one model with its derived figures.
type profileModel struct {
	Name            string `json:"name"`
	Params          int64  `json:"params"`
	WeightBytesBF16 int64  `json:"weight_bytes_bf16"`
	KVBytesPerToken int64  `json:"kv_bytes_per_token"`
	ContextLen      int    `json:"context_len"`
	// KVTokens maps each GPU to the KV cache capacity in tokens at BF16,
	// TP 1, vLLM's default memory utilization; absent where the model
	// does not fit.
	KVTokens map[string]int    `json:"kv_tokens_bf16_tp1"`
	NoFit    map[string]string `json:"does_not_fit,omitempty"`
}

type profilesOut struct {
	Hardware []profileHardware `json:"hardware"`
	Models   []profileModel    `json:"models"`
}

// collectProfiles derives every figure from the engine's own footprint
// calculation, so the listing matches what sim and the labs use.
func collectProfiles() profilesOut {
	var out profilesOut
	hws := engine.HardwareProfiles()
	for _, h := range hws {
		out.Hardware = append(out.Hardware, profileHardware{h})
	}
	for _, m := range engine.ModelProfiles() {
		pm := profileModel{Name: m.Name, Params: m.ParamCount(), KVBytesPerToken: m.KVBytesPerToken(),
			ContextLen: m.MaxContextLen, KVTokens: map[string]int{}, NoFit: map[string]string{}}
		for _, h := range hws {
			cfg := engine.DefaultConfig()
			cfg.Hardware, cfg.Model, cfg.Precision, cfg.TP = h, m, engine.BF16, 1
			fp, err := cfg.Footprint()
			pm.WeightBytesBF16 = fp.WeightBytes
			if err != nil {
				pm.NoFit[h.Name] = err.Error()
				continue
			}
			pm.KVTokens[h.Name] = fp.KVTokens
		}
		out.Models = append(out.Models, pm)
	}
	return out
}

// runProfiles lists hardware and models with derived figures.
func runProfiles(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profiles", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	return exitCode(stderr, "profiles", func() error {
		if help, err := parseFlags(fs, args, stdout); help || err != nil {
			return err
		}
		p := collectProfiles()
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(p)
		}
		return writeProfiles(stdout, p)
	}())
}

func writeProfiles(w io.Writer, p profilesOut) error {
	section := func(title string, rows [][]string) error {
		fmt.Fprintln(w, title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, r := range rows {
			fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		_, err := fmt.Fprintln(w)
		return err
	}
	hw := [][]string{{"name", "BF16 TFLOP/s", "FP8 TFLOP/s", "HBM GB/s", "memory GiB", "interconnect"}}
	for _, h := range p.Hardware {
		fp8 := "-"
		if h.FP8TFLOPS > 0 {
			fp8 = fmt.Sprintf("%.0f", h.FP8TFLOPS)
		}
		hw = append(hw, []string{h.Name, fmt.Sprintf("%.0f", h.BF16TFLOPS), fp8,
			fmt.Sprintf("%.0f", h.MemBandwidthGBs), fmt.Sprintf("%.1f", h.MemoryGiB), h.Interconnect})
	}
	models := [][]string{{"name", "params (B)", "weights BF16 (GB)", "KV KiB/token", "context"}}
	for _, m := range p.Models {
		models = append(models, []string{m.Name, fmt.Sprintf("%.2f", float64(m.Params)/1e9),
			fmt.Sprintf("%.1f", float64(m.WeightBytesBF16)/1e9), fmt.Sprintf("%.0f", float64(m.KVBytesPerToken)/1024),
			fmt.Sprint(m.ContextLen)})
	}
	capRows := [][]string{{"model"}}
	for _, h := range p.Hardware {
		capRows[0] = append(capRows[0], h.Name)
	}
	for _, m := range p.Models {
		row := []string{m.Name}
		for _, h := range p.Hardware {
			if n, ok := m.KVTokens[h.Name]; ok {
				row = append(row, fmt.Sprint(n))
			} else {
				row = append(row, "does not fit")
			}
		}
		capRows = append(capRows, row)
	}
	for _, s := range []struct {
		title string
		rows  [][]string
	}{
		{"Hardware", hw},
		{"Models", models},
		{"KV cache capacity in tokens (BF16, TP 1, gpu_memory_utilization 0.9)", capRows},
	} {
		if err := section(s.title, s.rows); err != nil {
			return err
		}
	}
	return nil
}
