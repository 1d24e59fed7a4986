package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/benchmark"
)

// compareFlags are bench's --compare-sim settings: which deployment the
// bundled engine models for the side-by-side run.
type compareFlags struct {
	on              bool
	hardware, model string
}

func (f *compareFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.on, "compare-sim", false, "also run the same workload on the bundled engine's virtual clock and print both, with the error of each figure")
	fs.StringVar(&f.hardware, "sim-hardware", "h100-sxm", "GPU profile the bundled engine models with --compare-sim")
	fs.StringVar(&f.model, "sim-model", "", "model profile the bundled engine models with --compare-sim (default: the served model's name when it is a profile, else llama-3.1-8b)")
}

// config is the engine configuration to simulate; served is the model
// name the server reported.
func (f *compareFlags) config(served string) (engine.Config, error) {
	cfg := engine.DefaultConfig()
	hw, err := engine.LookupHardware(f.hardware)
	if err != nil {
		return cfg, badInput{fmt.Errorf("--sim-hardware: %w", err)}
	}
	name := f.model
	if name == "" {
		name = "llama-3.1-8b"
		if _, err := engine.LookupModel(served); err == nil {
			name = served
		}
	}
	m, err := engine.LookupModel(name)
	if err != nil {
		return cfg, badInput{fmt.Errorf("--sim-model: %w", err)}
	}
	cfg.Hardware, cfg.Model = hw, m
	if err := cfg.Validate(); err != nil {
		return cfg, badInput{fmt.Errorf("--compare-sim: %w", err)}
	}
	return cfg, nil
}

// compareRow is one figure measured on the server and modelled by the
// bundled engine.
type compareRow struct {
	Metric    string  `json:"metric"`
	Measured  float64 `json:"measured"`
	Simulated float64 `json:"simulated"`
	// ErrorPct is (simulated − measured) ÷ measured, in percent; null
	// when nothing was measured.
	ErrorPct *float64 `json:"error_pct"`
}

// compareRows lines up the figures vLLM's benchmark reports.
func compareRows(meas, sim benchmark.Result) []compareRow {
	rows := []compareRow{
		{Metric: "Request throughput (req/s)", Measured: meas.RequestThroughput, Simulated: sim.RequestThroughput},
		{Metric: "Output token throughput (tok/s)", Measured: meas.OutputThroughput, Simulated: sim.OutputThroughput},
	}
	if len(meas.Goodput) > 0 {
		rows = append(rows, compareRow{Metric: "Request goodput (req/s)", Measured: meas.RequestGoodput, Simulated: sim.RequestGoodput})
	}
	p := ""
	if len(meas.Percentiles) > 0 {
		p = fmt.Sprintf("P%g", meas.Percentiles[len(meas.Percentiles)-1])
	}
	for _, s := range []struct {
		name      string
		meas, sim benchmark.Summary
	}{{"TTFT", meas.TTFT, sim.TTFT}, {"TPOT", meas.TPOT, sim.TPOT}, {"ITL", meas.ITL, sim.ITL}, {"E2EL", meas.E2EL, sim.E2EL}} {
		rows = append(rows,
			compareRow{Metric: "Mean " + s.name + " (ms)", Measured: s.meas.Mean, Simulated: s.sim.Mean},
			compareRow{Metric: "Median " + s.name + " (ms)", Measured: s.meas.Median, Simulated: s.sim.Median})
		if p != "" && len(s.meas.Percentiles) > 0 && len(s.sim.Percentiles) > 0 {
			rows = append(rows, compareRow{Metric: p + " " + s.name + " (ms)",
				Measured: s.meas.Percentiles[len(s.meas.Percentiles)-1], Simulated: s.sim.Percentiles[len(s.sim.Percentiles)-1]})
		}
	}
	for i := range rows {
		if m := rows[i].Measured; m != 0 && !math.IsNaN(m) {
			e := 100 * (rows[i].Simulated - m) / m
			rows[i].ErrorPct = &e
		}
	}
	return rows
}

// writeComparison prints the rows as a table, or with asJSON both results
// in vLLM's keys beside the rows.
func writeComparison(w io.Writer, cfg engine.Config, wl benchmark.Workload, meas, sim benchmark.Result, asJSON bool) error {
	rows := compareRows(meas, sim)
	if asJSON {
		var mb, sb bytes.Buffer
		if err := report(&mb, wl, meas, true); err != nil {
			return err
		}
		if err := report(&sb, wl, sim, true); err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"measured": json.RawMessage(mb.Bytes()), "simulated": json.RawMessage(sb.Bytes()),
			"simulated_profile": cfg.Model.Name + " on " + cfg.Hardware.Name, "comparison": rows})
	}
	fmt.Fprintf(w, "\nmeasured vs bundled engine (%s on %s, %s, virtual clock):\n", cfg.Model.Name, cfg.Hardware.Name, cfg.Policy)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tmeasured\tsimulated\terror\t")
	for _, r := range rows {
		e := "—"
		if r.ErrorPct != nil {
			e = fmt.Sprintf("%+.1f%%", *r.ErrorPct)
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%s\t\n", r.Metric, r.Measured, r.Simulated, e)
	}
	return tw.Flush()
}
