package labtest

import "github.com/latencylab/latencylab/labs"

// VisibleText lists every string of f that the web page shows a learner:
// status, error, stat labels and notes, the text panel, chart titles,
// labels and legends, and table titles, headers and cells. Tests use it to
// check that no internal detail (a run id, a Go type) and no copied seed
// sentence reaches the page.
func VisibleText(f labs.Frame) []string {
	out := []string{f.Status, f.Error}
	for _, s := range f.Stats {
		out = append(out, s.Label, s.Note)
	}
	if f.Text != nil {
		out = append(out, f.Text.Title, f.Text.Body)
		out = appendMarks(out, f.Text.Marks)
	}
	for _, c := range f.Charts {
		out = append(out, c.Title, c.XLabel, c.YLabel)
		for _, s := range c.Series {
			out = append(out, s.Name)
		}
		for _, b := range c.Bars {
			out = append(out, b.Label)
			for _, s := range b.Segments {
				out = append(out, s.Name)
			}
		}
		for _, r := range c.Rows {
			out = append(out, r.Label)
			for _, s := range r.Spans {
				out = append(out, s.Name)
			}
		}
		if c.Hist != nil {
			out = appendMarks(out, c.Hist.Marks)
		}
		out = appendMarks(appendMarks(out, c.Marks), c.HLines)
	}
	for _, t := range f.Tables {
		out = append(out, t.Title)
		out = append(out, t.Columns...)
		for _, r := range t.Rows {
			out = append(out, r...)
		}
	}
	return out
}

func appendMarks(out []string, ms []labs.Mark) []string {
	for _, m := range ms {
		out = append(out, m.Label)
	}
	return out
}
