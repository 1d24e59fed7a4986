package web

import (
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
)

// shownPanels tracks what a lab page shows while a run streams: a frame
// replaces the panels it sets and leaves the others as they were, so the
// final frame alone (often stats only) is not what the learner saw.
type shownPanels struct {
	text   *labs.TextPanel
	charts []labs.Chart
	tables []labs.Table
}

// wrap returns send that also records each frame it delivered.
func (sp *shownPanels) wrap(send func(labs.Frame) error) func(labs.Frame) error {
	return func(f labs.Frame) error {
		if err := send(f); err != nil {
			return err
		}
		if f.Text != nil {
			sp.text = f.Text
		}
		if f.Charts != nil {
			sp.charts = f.Charts
		}
		if f.Tables != nil {
			sp.tables = f.Tables
		}
		return nil
	}
}

// panels is what the page showed last, for saving with the run.
func (sp *shownPanels) panels() *store.Panels {
	return &store.Panels{Text: sp.text, Charts: sp.charts, Tables: sp.tables}
}
