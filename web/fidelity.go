package web

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/latencylab/latencylab/engine/fidelity"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views"
)

// fidelityURL is the reference-table page.
const fidelityURL = "/engine/fidelity"

// fidelityTable is the engine's error on its public reference set, computed
// once in the background from server start (replaying every reference takes
// tens of milliseconds, so start-up does not wait for it).
type fidelityTable struct {
	once sync.Once
	done chan struct{}
	rep  *fidelity.Report
	err  error
}

func newFidelityTable() *fidelityTable { return &fidelityTable{done: make(chan struct{})} }

// start begins the replay in the background; later calls do nothing. Serve
// calls it so a running server has the table ready within moments of
// start-up; a server used only through Handler (tests) computes on demand.
func (t *fidelityTable) start() {
	t.once.Do(func() {
		go func() {
			defer close(t.done)
			set, err := fidelity.Load()
			if err != nil {
				t.err = err
				return
			}
			t.rep, t.err = fidelity.Evaluate(set)
		}()
	})
}

// wait returns the table once it is computed. If ctx ends first it returns
// ctx's error, which no replay failure can be.
func (t *fidelityTable) wait(ctx context.Context) (*fidelity.Report, error) {
	t.start()
	select {
	case <-t.done:
		return t.rep, t.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ready returns the table if it is computed and sound, without waiting.
func (t *fidelityTable) ready() (*fidelity.Report, bool) {
	t.start()
	select {
	case <-t.done:
		return t.rep, t.err == nil
	default:
		return nil, false
	}
}

// note is the line a lab shows under its headline stats.
func (t *fidelityTable) note() views.FidelityNote {
	n := views.FidelityNote{URL: fidelityURL}
	rep, ok := t.ready()
	if !ok {
		return n
	}
	for _, k := range fidelity.Kinds() {
		if m, ok := rep.ByKind[k]; ok {
			n.Within = append(n.Within, pct(m)+" on "+k.Label())
		}
	}
	return n
}

// pct formats a fraction as a percentage with one decimal.
func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// offThreshold marks figures off by more than this fraction on the page.
const offThreshold = 0.25

// fidelityView turns the report into the page's view model.
func fidelityView(rep *fidelity.Report, err error) views.Fidelity {
	if err != nil {
		return views.Fidelity{Ready: true, Error: "The reference set could not be replayed: " + err.Error()}
	}
	f := views.Fidelity{Ready: true, About: rep.Set.About, Notes: rep.Set.Notes, Figures: len(rep.Rows), HeldOut: rep.HeldOutCount(),
		HeldOutMedian: pct(rep.HeldOutMedian), FittedMedian: pct(rep.FittedMedian), AllMedian: pct(rep.AllMedian)}
	f.Worst, f.WorstFitted = worstLine(rep.WorstHeldOut), worstLine(rep.WorstFitted)
	counts := map[string]int{}
	kinds := map[fidelity.Kind]int{}
	for i, r := range rep.Rows {
		span := 0
		if i == 0 || rep.Rows[i-1].Run != r.Run {
			span = len(r.Run.Metrics)
		}
		counts[r.Source.ID]++
		kinds[r.Kind]++
		f.Rows = append(f.Rows, views.FidelityRow{
			Run: r.Run.ID, URL: r.Run.URL, Source: r.Source.ID,
			Deployment: deployment(r.Run), Engine: r.Run.Engine, Workload: workload(r.Run),
			Metric: fidelity.MetricLabel(r.Metric), Measured: figure(r.Measured), Modelled: figure(r.Modelled),
			Error: fmt.Sprintf("%+.1f%%", 100*r.Error()), Off: math.Abs(r.Error()) > offThreshold, HeldOut: r.HeldOut(),
			Span: span,
		})
	}
	f.Publishers = rep.Set.Publishers()
	for _, s := range rep.Set.Sources {
		f.Sources = append(f.Sources, views.FidelitySource{Title: s.Title, Publisher: s.Publisher, URL: s.URL, HeldOut: s.HeldOut, Figures: counts[s.ID]})
	}
	for _, k := range fidelity.Kinds() {
		if m, ok := rep.ByKind[k]; ok {
			f.ByKind = append(f.ByKind, views.FidelityKind{Label: k.Label(), Median: pct(m), Figures: kinds[k]})
		}
	}
	return f
}

// worstLine names a set's figure furthest off, with both values and the
// error; "" when the set has no figures.
func worstLine(w fidelity.Row) string {
	if w.Run == nil {
		return ""
	}
	return fmt.Sprintf("%s, %s: measured %s, modelled %s (%+.1f%%)", w.Run.ID, fidelity.MetricLabel(w.Metric),
		figure(w.Measured), figure(w.Modelled), 100*w.Error())
}

// figure formats a measured or modelled value with the precision of the
// sources (three decimals), without trailing zeros.
func figure(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func deployment(r *fidelity.Run) string {
	hw := r.Hardware
	if hw == "" {
		hw = "custom GPU"
		if cfg, err := r.Config(); err == nil {
			hw = cfg.Hardware.Name
		}
	}
	return fmt.Sprintf("%s · %s · %s · TP %d", r.Model, hw, strings.ToUpper(string(r.Precision)), r.TP)
}

func workload(r *fidelity.Run) string {
	var b strings.Builder
	if n := len(r.InputLens); n > 0 {
		in, out := 0, 0
		for i := range r.InputLens {
			in += r.InputLens[i]
			out += r.OutputLens[i]
		}
		fmt.Fprintf(&b, "%s at once, %s prompt and %s output tokens in all (each request's lengths recorded)", labs.Count(n, "request"), labs.Thousands(in), labs.Thousands(out))
	} else {
		fmt.Fprintf(&b, "%s of %s prompt / %s output tokens", labs.Count(r.NumPrompts, "request"), labs.Thousands(r.InputLen), labs.Thousands(r.OutputLen))
		if r.MaxConcurrency > 0 {
			fmt.Fprintf(&b, ", %s at a time", labs.Thousands(r.MaxConcurrency))
		} else {
			b.WriteString(", all at once")
		}
	}
	return b.String()
}
