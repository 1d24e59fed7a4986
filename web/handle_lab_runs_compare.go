package web

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// handleLabCompare serves GET /labs/{slug}/compare?a={id}&b={id}: two of
// the learner's runs of one lab, every chart they share drawn once with
// both runs' series, and their settings and figures side by side.
func (s *Server) handleLabCompare(c echo.Context) error {
	lab, err := s.labFromPath(c)
	if err != nil {
		return err
	}
	info := lab.Info()
	rawA, rawB := strings.TrimSpace(c.QueryParam("a")), strings.TrimSpace(c.QueryParam("b"))
	if rawA == "" || rawB == "" {
		return badRequest("Pick two runs to compare: tick one run in each row of the Compare picker under the lab, then press Compare.", nil)
	}
	for _, raw := range []string{rawA, rawB} {
		if id, err := strconv.ParseInt(raw, 10, 64); err != nil || id < 1 {
			return badRequest("“"+truncateRunes(raw, 20)+"” is not a run number. The Compare picker under the lab fills in a and b for you.", nil)
		}
	}
	if rawA == rawB {
		return badRequest("Those are the same run twice. Pick two different runs to compare.", nil)
	}
	a, err := s.learnerRun(c, rawA)
	if err != nil {
		return err
	}
	b, err := s.learnerRun(c, rawB)
	if err != nil {
		return err
	}
	for _, r := range []store.Run{a, b} {
		if r.Lab != info.Slug {
			return badRequest("Your "+runName(r)+" is a run of another lab. Only runs of the same lab can be compared; pick two from this lab's run list.", nil)
		}
	}
	v := views.ComparePage{Lab: info, LabURL: "/labs/" + info.Slug,
		A: runRef(info.Slug, a), B: runRef(info.Slug, b)}
	v.Rows, v.Same = compareRows(lab.Knobs(), a, b)
	shared, onlyA, onlyB := overlayCharts(panelCharts(a), panelCharts(b), v.A.Name, v.B.Name)
	v.Charts = scopeCharts("cmp", shared)
	v.A.Charts, v.B.Charts = scopeCharts("cmp-a", onlyA), scopeCharts("cmp-b", onlyB)
	p := s.pageWithJS(c, info.Title+": "+v.A.Name+" and "+v.B.Name, "labs")
	chartWidthFromCookie(c)
	return render(c, http.StatusOK, views.CompareView(p, v))
}

// compareURL is the comparison of runs a and b of a lab.
func compareURL(slug string, a, b int64) string {
	return "/labs/" + slug + "/compare?a=" + strconv.FormatInt(a, 10) + "&b=" + strconv.FormatInt(b, 10)
}

func panelCharts(r store.Run) []labs.Chart {
	if r.Panels == nil {
		return nil
	}
	return r.Panels.Charts
}

func runRef(slug string, r store.Run) views.RunRef {
	ref := views.RunRef{Name: runName(r), When: r.CreatedAt.Local().Format("2 Jan 15:04:05"), URL: runURL(slug, r.ID),
		Status: r.Summary.Status, Error: r.Summary.Error, Reflection: r.Reflection, NoPanels: r.Panels == nil}
	if r.Panels != nil {
		ref.Text, ref.Tables = r.Panels.Text, r.Panels.Tables
	}
	return ref
}

// compareRows lays two runs side by side: the knobs that differ, every
// headline stat with the second run's difference from the first, and the
// predictions. Knobs set alike come back as same.
func compareRows(knobs []labs.Knob, a, b store.Run) (rows []views.CompareRow, same []string) {
	for _, set := range settingsPairs(knobs, a, b) {
		if set[1] == set[2] {
			same = append(same, set[0]+" "+set[1])
			continue
		}
		rows = append(rows, views.CompareRow{Label: set[0], A: set[1], B: set[2], Kind: "param"})
	}
	if a.Engine != b.Engine {
		rows = append(rows, views.CompareRow{Label: "Engine", A: engineName(a), B: engineName(b), Kind: "param"})
	}
	var keys []labs.Stat
	for _, st := range append(append([]labs.Stat(nil), a.Summary.Stats...), b.Summary.Stats...) {
		if !containsKey(keys, st.Key) {
			keys = append(keys, st)
		}
	}
	for _, k := range keys {
		va, okA := statOf(a, k.Key)
		vb, okB := statOf(b, k.Key)
		row := views.CompareRow{Label: k.Label, A: "—", B: "—", Kind: "stat"}
		var both []float64 // one unit for the row's two figures
		if okA {
			both = append(both, va.Value)
		}
		if okB && (!okA || va.Unit == vb.Unit) {
			both = append(both, vb.Value)
		}
		if okA {
			row.A = views.FormatInRow(va.Value, va.Unit, both...)
		}
		if okB {
			row.B = views.FormatInRow(vb.Value, vb.Unit, both...)
		}
		if okA && okB && va.Unit == vb.Unit {
			row.Diff = difference(va.Value, vb.Value, va.Unit)
		}
		rows = append(rows, row)
	}
	if a.Summary.Prediction != nil || b.Summary.Prediction != nil {
		rows = append(rows, views.CompareRow{Label: "Your prediction", A: guessText(a.Summary.Prediction), B: guessText(b.Summary.Prediction), Kind: "guess"})
	}
	if a.Summary.Second != nil || b.Summary.Second != nil {
		rows = append(rows, views.CompareRow{Label: "Your second prediction", A: guessText(a.Summary.Second), B: guessText(b.Summary.Second), Kind: "guess"})
	}
	return rows, same
}

// engineName is what made a run, for the comparison.
func engineName(r store.Run) string {
	if r.Engine == "" {
		return "bundled engine"
	}
	return r.Engine
}

func settingsPairs(knobs []labs.Knob, a, b store.Run) [][3]string {
	sa, sb := settingsOf(knobs, a.Params), settingsOf(knobs, b.Params)
	out := make([][3]string, len(sa))
	for i := range sa {
		out[i] = [3]string{sa[i].Label, sa[i].Value, sb[i].Value}
	}
	return out
}

func containsKey(stats []labs.Stat, key string) bool {
	for _, s := range stats {
		if s.Key == key {
			return true
		}
	}
	return false
}

func statOf(r store.Run, key string) (labs.Stat, bool) {
	for _, s := range r.Summary.Stats {
		if s.Key == key {
			return s, true
		}
	}
	return labs.Stat{}, false
}

func guessText(p *store.Prediction) string {
	if p != nil {
		return views.FormatValue(p.Value, p.Unit)
	}
	return "—"
}

// difference is b against a: "+120 ms (+48%)", "−3 tokens", "same".
func difference(a, b float64, unit string) string {
	d := b - a
	if d == 0 {
		return "same"
	}
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	out := sign + views.FormatInRow(math.Abs(d), unit, a, b) // in the row's unit
	if a != 0 && unit != "%" {
		out += " (" + sign + strconv.FormatFloat(math.Abs(d/a*100), 'f', 0, 64) + "%)"
	}
	return out
}
