package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// handleLabRunPage serves GET /labs/{slug}/runs/{id}: one of the learner's
// runs reopened with its settings, prediction against result and the
// panels it ended with, drawn by the live lab's components.
func (s *Server) handleLabRunPage(c echo.Context) error {
	lab, err := s.labFromPath(c)
	if err != nil {
		return err
	}
	info := lab.Info()
	r, err := s.learnerRun(c, c.Param("id"))
	if err != nil {
		return err
	}
	if r.Lab != info.Slug {
		return notFound("saved run “" + c.Param("id") + "” among your runs of this lab")
	}
	v := views.RunPage{
		Lab: info, LabURL: "/labs/" + info.Slug, Name: runName(r),
		When:     r.CreatedAt.Local().Format("2 Jan 2006 15:04:05"),
		Prefix:   "run-" + c.Param("id"),
		Settings: settingsOf(lab.Knobs(), r.Params),
		Stats:    r.Summary.Stats, Status: r.Summary.Status, Error: r.Summary.Error,
		Reflection: reflectionForm(info.Slug, r, "run"),
	}
	for _, p := range r.Summary.Predictions() {
		v.Guesses = append(v.Guesses, views.Guess{Value: p.Value, Unit: p.Unit, Stat: p.Stat})
	}
	if r.Panels == nil {
		v.NoPanels = true
	} else {
		v.Text, v.Tables = r.Panels.Text, r.Panels.Tables
		v.Charts = scopeCharts(v.Prefix, r.Panels.Charts)
		if r.Panels.Thinned {
			v.ThinnedTo = store.MaxSeriesPoints
		}
	}
	others, err := s.store.ListRuns(c.Request().Context(), learnerID(c), info.Slug, s.cfg.RunListSize)
	if err != nil {
		return err
	}
	for _, o := range others {
		if o.ID == r.ID {
			continue
		}
		a, b := o, r // the older run first, so the newer is the dashed one
		if o.Seq > r.Seq {
			a, b = r, o
		}
		v.Others = append(v.Others, views.Link{Label: runName(o), URL: compareURL(info.Slug, a.ID, b.ID)})
	}
	p := s.pageWithJS(c, info.Title+": "+v.Name, "labs")
	chartWidthFromCookie(c)
	return render(c, http.StatusOK, views.RunView(p, v))
}

// settingsOf lists every knob of a saved run; a knob the lab gained since
// the run was saved shows its default, as the run list does.
func settingsOf(knobs []labs.Knob, params labs.Values) []views.Setting {
	out := make([]views.Setting, 0, len(knobs))
	for _, k := range knobs {
		v, ok := params[k.Name]
		if !ok {
			v = k.Default
		}
		out = append(out, views.Setting{Label: k.Label, Value: displayValue(k, v)})
	}
	return out
}

// scopeCharts prefixes chart ids so they are unique on the page.
func scopeCharts(prefix string, cs []labs.Chart) []labs.Chart {
	out := make([]labs.Chart, len(cs))
	for i, c := range cs {
		c.ID = prefix + "-" + c.ID
		out[i] = c
	}
	return out
}
