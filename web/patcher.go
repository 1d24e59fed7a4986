package web

import (
	"context"
	"slices"

	"github.com/latencylab/latencylab/web/views/charts"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views"
)

// framePatcher turns frames into patches of whole elements: the status
// line, the stats block, the text panel and each chart's <svg> by id (the
// charts container only when the set of charts changes).
type framePatcher struct {
	st       *stream
	ctx      context.Context
	ids      labIDs
	guesses  []views.Guess // the learner's predictions, each shown on its stat's card
	second   bool          // the lab asks for a second prediction (its error line exists)
	chartIDs []string      // ids of the charts now on the page
}

// start clears the previous run's panels and field errors.
func (p *framePatcher) start(knobs []labs.Knob) error {
	pre := p.ids.Prefix
	for _, k := range knobs {
		id := pre + "-err-" + k.Name
		if err := p.st.patch(p.ctx, id, views.FieldError(id, "")); err != nil {
			return err
		}
	}
	for _, step := range []func() error{
		func() error { return p.st.patch(p.ctx, pre+"-err-guess", views.FieldError(pre+"-err-guess", "")) },
		func() error {
			if !p.second {
				return nil
			}
			return p.st.patch(p.ctx, pre+"-err-guess2", views.FieldError(pre+"-err-guess2", ""))
		},
		func() error { return p.st.patch(p.ctx, pre+"-error", views.ErrorBox(pre, "")) },
		func() error { return p.st.patch(p.ctx, pre+"-status", views.Status(pre, "Starting…", "running")) },
		p.clear,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// clear empties the result panels: the stats, the text, the charts and
// the tables.
func (p *framePatcher) clear() error {
	pre := p.ids.Prefix
	for _, step := range []func() error{
		func() error { return p.st.patch(p.ctx, pre+"-stats", views.StatCards(pre, nil, nil)) },
		func() error { return p.st.patch(p.ctx, pre+"-text", views.Text(pre, nil)) },
		func() error {
			p.chartIDs = nil
			return p.st.patch(p.ctx, pre+"-charts", views.ChartsPanel(pre, nil))
		},
		func() error { return p.st.patch(p.ctx, pre+"-tables", views.Tables(pre, nil)) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// frame patches every panel the frame sets; panels it leaves nil keep what
// they show.
func (p *framePatcher) frame(f labs.Frame) error {
	pre := p.ids.Prefix
	state, status := "running", f.Status
	switch {
	case f.Final && f.Error != "":
		state = "failed"
	case f.Final && f.Missed:
		state = "missed"
	case f.Final:
		state = "done"
	}
	if status == "" {
		status = map[string]string{"running": "Running…", "done": "Done.", "failed": "The run failed."}[state]
	}
	if err := p.st.patch(p.ctx, pre+"-status", views.Status(pre, status, state)); err != nil {
		return err
	}
	if f.Error != "" || f.Final {
		if err := p.st.patch(p.ctx, pre+"-error", views.ErrorBox(pre, f.Error)); err != nil {
			return err
		}
	}
	if f.Stats != nil {
		if err := p.st.patch(p.ctx, pre+"-stats", views.StatCards(pre, f.Stats, p.guesses)); err != nil {
			return err
		}
	}
	if f.Text != nil {
		if err := p.st.patch(p.ctx, pre+"-text", views.Text(pre, f.Text)); err != nil {
			return err
		}
	}
	if f.Charts != nil {
		if err := p.charts(f.Charts); err != nil {
			return err
		}
	}
	if f.Tables != nil {
		if err := p.st.patch(p.ctx, pre+"-tables", views.Tables(pre, f.Tables)); err != nil {
			return err
		}
	}
	return nil
}

func (p *framePatcher) charts(cs []labs.Chart) error {
	pre := p.ids.Prefix
	scoped := make([]labs.Chart, len(cs))
	ids := make([]string, len(cs))
	for i, c := range cs {
		c.ID = pre + "-" + c.ID // unique when a page holds several labs
		scoped[i], ids[i] = c, c.ID
	}
	if !slices.Equal(ids, p.chartIDs) {
		p.chartIDs = ids
		return p.st.patch(p.ctx, pre+"-charts", views.ChartsPanel(pre, scoped))
	}
	for _, c := range scoped {
		if err := p.st.patch(p.ctx, c.ID, charts.Chart(c)); err != nil {
			return err
		}
	}
	return nil
}

// ended shows how a run that produced no usable final frame ended. A stop
// the learner asked for is said in the status line alone; a failure is
// said once, in the error box, with the status line only marking it
// failed, as a lab's own failed frame is (twice would be read out twice).
func (p *framePatcher) ended(msg, state string) error {
	pre := p.ids.Prefix
	status, box := msg, ""
	if state == "failed" {
		status, box = "The run failed.", msg
	}
	if err := p.st.patch(p.ctx, pre+"-status", views.Status(pre, status, state)); err != nil {
		return err
	}
	return p.st.patch(p.ctx, pre+"-error", views.ErrorBox(pre, box))
}
