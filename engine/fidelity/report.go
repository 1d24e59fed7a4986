package fidelity

import (
	"fmt"
	"math"
	"slices"
)

// Row is one published figure beside the engine's figure for the same
// deployment and workload.
type Row struct {
	Run      *Run
	Source   *Source
	Metric   string
	Kind     Kind
	Measured float64
	Modelled float64
}

// Error is the signed relative error, (modelled − measured) / measured.
func (r Row) Error() float64 { return (r.Modelled - r.Measured) / r.Measured }

// Factor is how many times off the figure is, whichever way: 1 is exact,
// 2 is double or half.
func (r Row) Factor() float64 {
	if r.Modelled <= 0 {
		return math.Inf(1)
	}
	return math.Max(r.Modelled/r.Measured, r.Measured/r.Modelled)
}

// HeldOut reports whether the figure's source was held out of the fit.
func (r Row) HeldOut() bool { return r.Source.HeldOut }

// Report is the whole table and its summary errors (absolute, as fractions).
type Report struct {
	Set  *Set
	Rows []Row
	// HeldOutMedian and FittedMedian are the median absolute errors of the
	// held-out and fitted figures; AllMedian pools both.
	HeldOutMedian, FittedMedian, AllMedian float64
	// WorstHeldOut and WorstFitted are the held-out and the fitted figure
	// furthest off by Factor: fitting does not hide a figure the model
	// cannot reach, so the page names both.
	WorstHeldOut, WorstFitted Row
	// ByKind is the median absolute error of every figure of each kind.
	ByKind map[Kind]float64
}

// Evaluate replays every run on the current engine and compares.
func Evaluate(s *Set) (*Report, error) {
	sources := map[string]*Source{}
	for i := range s.Sources {
		sources[s.Sources[i].ID] = &s.Sources[i]
	}
	rep := &Report{Set: s, ByKind: map[Kind]float64{}}
	for i := range s.Runs {
		run := &s.Runs[i]
		got, err := run.Replay()
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		names := make([]string, 0, len(run.Metrics))
		for n := range run.Metrics {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			rep.Rows = append(rep.Rows, Row{Run: run, Source: sources[run.Source], Metric: n,
				Kind: metricKinds[n], Measured: run.Metrics[n], Modelled: got[n]})
		}
	}
	rep.summarize()
	return rep, nil
}

func (rep *Report) summarize() {
	var held, fitted, all []float64
	byKind := map[Kind][]float64{}
	for _, r := range rep.Rows {
		e := math.Abs(r.Error())
		all = append(all, e)
		byKind[r.Kind] = append(byKind[r.Kind], e)
		worst := &rep.WorstHeldOut
		if r.HeldOut() {
			held = append(held, e)
		} else {
			fitted = append(fitted, e)
			worst = &rep.WorstFitted
		}
		if worst.Run == nil || r.Factor() > worst.Factor() {
			*worst = r
		}
	}
	rep.HeldOutMedian, rep.FittedMedian, rep.AllMedian = median(held), median(fitted), median(all)
	for k, es := range byKind {
		rep.ByKind[k] = median(es)
	}
}

// HeldOutCount is the number of held-out figures.
func (rep *Report) HeldOutCount() int {
	n := 0
	for _, r := range rep.Rows {
		if r.HeldOut() {
			n++
		}
	}
	return n
}

// median of absolute errors; 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
