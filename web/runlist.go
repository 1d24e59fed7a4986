package web

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// runList loads a learner's latest runs of a lab and lays them out side by
// side: the knobs that differ, the headline stats, the prediction.
func (s *Server) runList(ctx context.Context, learner string, lab labs.Lab) (views.Runs, error) {
	info := lab.Info()
	runs, err := s.store.ListRuns(ctx, learner, info.Slug, s.cfg.RunListSize)
	if err != nil {
		return buildRuns(info, nil, nil), err // the empty list, named as usual
	}
	return buildRuns(info, lab.Knobs(), runs), nil
}

func buildRuns(info labs.Info, knobs []labs.Knob, runs []store.Run) views.Runs {
	slug := info.Slug
	out := views.Runs{Prefix: idsFor(slug).Prefix, Lab: info.Title}
	if len(runs) == 0 {
		return out
	}
	for i, r := range runs {
		label := fmt.Sprintf("#%d", i+1)
		if i == 0 {
			label = "Latest"
		}
		out.Cols = append(out.Cols, views.RunCol{Label: label, When: r.CreatedAt.Local().Format("15:04:05"), Error: r.Summary.Error,
			ID: r.ID, Name: runName(r), URL: runURL(slug, r.ID), Reflection: r.Reflection})
	}
	if len(runs) >= 2 {
		out.CompareURL = "/labs/" + slug + "/compare"
	}
	latest := reflectionForm(slug, runs[0], "runs")
	out.Latest = &latest
	for _, k := range knobs {
		cells := make([]string, len(runs))
		differ := false
		for i, r := range runs {
			v, ok := r.Params[k.Name]
			if !ok {
				v = k.Default
			}
			cells[i] = displayValue(k, v)
			if cells[i] != cells[0] {
				differ = true
			}
		}
		if differ {
			out.Rows = append(out.Rows, views.RunRow{Label: k.Label, Cells: cells, Kind: "param"})
		} else {
			out.Same = append(out.Same, k.Label+" "+cells[0])
		}
	}
	if row, ok := engineRow(runs); ok {
		out.Rows = append(out.Rows, row)
	}
	// Stats in the order the newest run reports them, then any older keys.
	var keys []labs.Stat
	seen := map[string]bool{}
	for _, r := range runs {
		for _, st := range r.Summary.Stats {
			if !seen[st.Key] {
				seen[st.Key] = true
				keys = append(keys, st)
			}
		}
	}
	for _, k := range keys {
		cells := make([]string, len(runs))
		var row []float64 // the row's figures in k's unit, shown in one unit
		for _, r := range runs {
			for _, st := range r.Summary.Stats {
				if st.Key == k.Key && st.Unit == k.Unit {
					row = append(row, st.Value)
				}
			}
		}
		for i, r := range runs {
			cells[i] = "—"
			for _, st := range r.Summary.Stats {
				if st.Key == k.Key {
					cells[i] = views.FormatInRow(st.Value, st.Unit, row...)
				}
			}
		}
		out.Rows = append(out.Rows, views.RunRow{Label: k.Label, Cells: cells, Kind: "stat"})
	}
	hasErr := false
	errs := make([]string, len(runs))
	for i, r := range runs {
		if r.Summary.Error != "" {
			hasErr = true
			errs[i] = r.Summary.Error
		}
	}
	for _, which := range []func(store.Summary) *store.Prediction{
		func(s store.Summary) *store.Prediction { return s.Prediction },
		func(s store.Summary) *store.Prediction { return s.Second },
	} {
		if row, ok := guessRow(runs, keys, which); ok {
			out.Rows = append(out.Rows, row)
		}
	}
	if hasErr {
		out.Rows = append(out.Rows, views.RunRow{Label: "Ended with", Cells: errs, Kind: "error"})
	}
	return out
}

// guessRow is one prediction's row of the run list, labelled with the stat
// it predicts; ok is false when no listed run has that prediction.
func guessRow(runs []store.Run, keys []labs.Stat, which func(store.Summary) *store.Prediction) (views.RunRow, bool) {
	cells := make([]string, len(runs))
	label, found := "Your prediction", false
	for i, r := range runs {
		cells[i] = "—"
		if p := which(r.Summary); p != nil {
			found = true
			cells[i] = views.FormatValue(p.Value, p.Unit)
			for _, k := range keys {
				if p.Stat == k.Key {
					label = "Your prediction (" + k.Label + ")"
				}
			}
		}
	}
	return views.RunRow{Label: label, Cells: cells, Kind: "guess"}, found
}
