package web

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// engineKnobName is the engine choice's name in error ids; its signal is
// labIDs.NS+"Engine", outside the lab's own params.
const engineKnobName = "engine"

// engineSignal is the signal holding a lab's engine choice.
func engineSignal(ids labIDs) string { return ids.NS + "Engine" }

// offersEngines reports whether the lab shows "Engine: bundled / that
// server": an upstream is configured and the lab runs on the engine pool.
func (s *Server) offersEngines(slug string) bool {
	return s.cfg.Upstream != nil && labs.RunsOnEngine(slug)
}

// engineKnob is the choice drawn with the lab's knobs.
func (s *Server) engineKnob(ids labIDs) views.KnobView {
	k := labs.Knob{Name: engineKnobName, Label: "Engine", Kind: labs.KnobEnum, Default: labs.EngineBundled,
		Options: []labs.Option{
			{Value: labs.EngineBundled, Label: "Bundled engine"},
			{Value: labs.EngineServer, Label: "That server"},
		},
		Help: "That server is " + s.cfg.Upstream.Label + ". A run on it also runs the same settings on the bundled engine modelling it (" +
			s.cfg.Upstream.Modelled + ") and shows both. The model and GPU knobs do not change a server; the provider knobs must be off (a run says which), as a real server has its own network and load."}
	return views.KnobView{Knob: k, Signal: engineSignal(ids), ErrID: ids.Prefix + "-err-" + engineKnobName, Value: labs.EngineBundled}
}

// readEngine reads the engine signal: true runs on the server. A lab that
// offers no choice ignores the signal; a value that is neither choice is a
// field error.
func (s *Server) readEngine(slug string, raw json.RawMessage) (bool, *labs.FieldError) {
	if !s.offersEngines(slug) || len(raw) == 0 || string(raw) == "null" {
		return false, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil || (v != labs.EngineBundled && v != labs.EngineServer && v != "") {
		return false, &labs.FieldError{Knob: engineKnobName, Message: "Pick the bundled engine or that server."}
	}
	return v == labs.EngineServer, nil
}

// serverRefusal is why a run on the server cannot go ahead with these
// settings: knobs that model a hosted provider (labs.ServerConflicts),
// or a run from a workshop page, whose runs all go to the room's shared
// engines. It returns the knobs' errors and the error box's message; none
// when the run may go ahead.
func serverRefusal(inWorkshop bool, knobs []labs.Knob, values labs.Values) ([]labs.FieldError, string) {
	if inWorkshop {
		msg := "In a workshop every run goes to the room's shared engines, so that server is not used here. Pick the bundled engine to run with the room."
		return []labs.FieldError{{Knob: engineKnobName, Message: msg}}, msg
	}
	return labs.ServerConflicts(knobs, values)
}

// twinRun is the lab's settings run on the bundled engine modelling the
// server, beside the learner's run on the server.
type twinRun struct {
	// tally is what the run on the server did there.
	tally  *labs.ServerTally
	wg     sync.WaitGroup
	final  *labs.Frame
	shown  shownPanels
	err    error
	engine string
	// settled is set once showEngines has replaced the pending note.
	settled bool
}

// startTwin starts the twin run; wait for it before reading it.
func (s *Server) startTwin(ctx context.Context, r labs.Run) *twinRun {
	t := &twinRun{engine: twinPrefix + s.cfg.Upstream.Modelled}
	record := t.shown.wrap(func(labs.Frame) error { return nil })
	t.wg.Go(func() {
		var last labs.Frame
		t.err = r.Start(s.cfg.Upstream.TwinContext(ctx), func(f labs.Frame) {
			_ = record(f)
			last = f
		})
		if t.err == nil && last.Final {
			t.final = &last
		}
	})
	return t
}

// showEngines waits for the twin, saves it beside the server's run (when
// that was saved) and patches the side-by-side view under the lab.
func (s *Server) showEngines(c echo.Context, p *framePatcher, server *store.Run, serverID int64, twin *twinRun) {
	twin.wg.Wait()
	twin.settled = true
	ids := p.ids
	v := views.EngineView{Server: s.cfg.Upstream.Label, Modelled: s.cfg.Upstream.Modelled}
	if twin.tally != nil && twin.tally.Sent() == 0 {
		// Nothing went to the server (batching's sweep or its dedicated
		// engine): both runs are the bundled engine's, and showing one as
		// measured would be false.
		v.Note = "These settings sent no request to that server: the run above timed itself on the bundled engine (on its virtual clock, or on an engine of its own), so its figures are the bundled engine's. Settings that run live on the shared engine measure that server (in the batching lab, the live mode with Shared engine on)."
		_ = p.st.patch(p.ctx, ids.Prefix+"-engines", views.EngineComparison(ids.Prefix, v))
		return
	}
	if twin.final == nil || twin.final.Error != "" {
		v.Note = "The bundled engine could not run the same settings, so there is nothing to set beside the measurement."
		if twin.final != nil {
			v.Note = "The bundled engine did not run the same settings: " + twin.final.Error
		}
		_ = p.st.patch(p.ctx, ids.Prefix+"-engines", views.EngineComparison(ids.Prefix, v))
		return
	}
	modelled := store.Run{Learner: server.Learner, Lab: server.Lab, Params: server.Params, CreatedAt: s.cfg.Clock.Now(),
		Summary: store.Summary{Stats: twin.final.Stats, Status: twin.final.Status}, Panels: twin.shown.panels(), Engine: twin.engine}
	if serverID > 0 {
		if id, err := s.store.SaveRun(c.Request().Context(), modelled); err == nil {
			v.CompareURL = compareURL(server.Lab, serverID, id)
		} else {
			s.cfg.Logger.Error("save modelled run", "id", requestID(c), "err", err)
		}
	}
	var unmeasured bool
	v.Rows, unmeasured = statRows(*server, modelled)
	if unmeasured {
		v.Note = notMeasuredNote
	}
	shared, _, _ := overlayCharts(panelCharts(*server), panelCharts(modelled), serverRun, bundledRun)
	v.Charts = scopeCharts(ids.Prefix+"-eng", shared)
	_ = p.st.patch(p.ctx, ids.Prefix+"-engines", views.EngineComparison(ids.Prefix, v))
}

// pendingEngines is the side-by-side slot as a run starts: a note while
// both engines run, or empty on the bundled engine alone (clearing what an
// earlier run showed).
func pendingEngines(u *labs.EngineChoice, onServer bool) views.EngineView {
	if !onServer {
		return views.EngineView{}
	}
	return views.EngineView{Server: u.Label, Modelled: u.Modelled,
		Pending: "Running on that server and, with the same settings, on the bundled engine modelling it…"}
}

// unsettledEngines is the side-by-side slot after a run on the server
// ended without a result (failed, stopped, or the page closed): the status
// line above says why, so this only stops promising a comparison.
func unsettledEngines(u *labs.EngineChoice) views.EngineView {
	return views.EngineView{Server: u.Label, Modelled: u.Modelled,
		Note: "The run on that server ended without a result, so there is nothing to set beside the bundled engine's."}
}

// twinPrefix starts the engine label of a run of the bundled engine
// modelling the server.
const twinPrefix = "bundled engine modelling "

// engineRow is the run list's "Engine" row, when the runs were not all made
// by the same engine.
func engineRow(runs []store.Run) (views.RunRow, bool) {
	cells := make([]string, len(runs))
	differ := false
	for i, r := range runs {
		switch {
		case r.Engine == "":
			cells[i] = "Bundled engine"
		case strings.HasPrefix(r.Engine, twinPrefix):
			cells[i] = "Bundled, modelling that server"
		default:
			cells[i] = "That server"
		}
		differ = differ || cells[i] != cells[0]
	}
	return views.RunRow{Label: "Engine", Cells: cells, Kind: "param"}, differ
}

// statRows are compareRows' headline figures only: the settings are the
// same on both sides. A figure the lab works out on the bundled engine
// even on a run on the server (labs.MeasuredOnServer) is not set in the
// measured column: it reads "not measured" there, with no error, and
// notMeasured says why.
func statRows(server, modelled store.Run) (rows []views.CompareRow, notMeasured bool) {
	kept := server
	kept.Summary.Stats = nil
	bundledOnly := map[string]bool{}
	twinLabel := map[string]string{}
	for _, st := range modelled.Summary.Stats {
		twinLabel[st.Key] = st.Label
	}
	for _, st := range server.Summary.Stats {
		if l, ok := twinLabel[st.Key]; ok {
			st.Label = bothLabels(st.Label, l) // a label that holds a verdict may differ
		}
		if labs.MeasuredOnServer(server.Lab, st.Key) {
			kept.Summary.Stats = append(kept.Summary.Stats, st)
		} else {
			bundledOnly[st.Label] = true
		}
	}
	// A lab may leave such a figure off the server run altogether rather
	// than show one it cannot measure: the modelled side still has it.
	for _, st := range modelled.Summary.Stats {
		if !labs.MeasuredOnServer(server.Lab, st.Key) && !slices.ContainsFunc(server.Summary.Stats, func(s labs.Stat) bool { return s.Key == st.Key }) {
			bundledOnly[st.Label] = true
		}
	}
	all, _ := compareRows(nil, kept, modelled)
	for _, r := range all {
		if r.Kind != "stat" {
			continue
		}
		if bundledOnly[r.Label] {
			r.A, r.Diff, notMeasured = "not measured", "", true
		}
		rows = append(rows, r)
	}
	return rows, notMeasured
}

// labelParts splits a label into words and what lies between them.
var labelParts = regexp.MustCompile(`\w+|\W+`)

// bothLabels is one row label for two runs' labels of the same figure:
// the label itself when they agree, else the part they share with the
// parts that differ side by side, the server's first ("Budget missed /
// met: p95 ≤ 1.00 s").
func bothLabels(server, twin string) string {
	if server == twin {
		return server
	}
	a, b := labelParts.FindAllString(server, -1), labelParts.FindAllString(twin, -1)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return strings.Join(a[:pre], "") + strings.Join(a[pre:len(a)-suf], "") + " / " +
		strings.Join(b[pre:len(b)-suf], "") + strings.Join(a[len(a)-suf:], "")
}

// notMeasuredNote explains the rows statRows leaves unmeasured.
const notMeasuredNote = "“Not measured”: this lab works those figures out on the bundled engine on either side (from a sweep on its virtual clock, the roofline, or its step trace, which a server does not report), so only the modelled one is shown."
