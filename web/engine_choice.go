package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/engine/upstream"
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
			s.cfg.Upstream.Modelled + ") and shows both. The model and GPU knobs do not change a server."}
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

// twinRun is the lab's settings run on the bundled engine modelling the
// server, beside the learner's run on the server.
type twinRun struct {
	// sent counts the requests the run on the server sent it.
	sent   *atomic.Int64
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
	if twin.sent != nil && twin.sent.Load() == 0 {
		// Nothing went to the server (batching's sweep or its dedicated
		// engine): both runs are the bundled engine's, and showing one as
		// measured would be false.
		v.Note = "These settings never reach an engine a server can stand in for (a sweep, or a dedicated engine), so the run above is the bundled engine's own. In the batching lab, pick the live mode with Shared engine on to measure that server."
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
	v.Rows = statRows(*server, modelled)
	shared, _, _ := overlayCharts(panelCharts(*server), panelCharts(modelled), "that server", "bundled engine")
	v.Charts = scopeCharts(ids.Prefix+"-eng", shared)
	_ = p.st.patch(p.ctx, ids.Prefix+"-engines", views.EngineComparison(ids.Prefix, v))
}

// serverFailure says why a run on the server failed, in the server's words
// when it answered with an error, without the client's internals.
func serverFailure(u *labs.EngineChoice, err error) string {
	var se *upstream.ServerError
	if errors.As(err, &se) {
		return "That server refused the run: " + strings.TrimRight(truncateRunes(se.Message, 200), ".") + "."
	}
	var short *upstream.ShortAnswer
	if errors.As(err, &short) {
		return fmt.Sprintf("That server wrote %s of the %s tokens this run asks for and then ended its answer: it does not honour ignore_eos (Ollama does not), so its timings are not shown beside the bundled engine's, which would write all %s.", labs.Thousands(short.Wrote), labs.Thousands(short.Asked), labs.Thousands(short.Asked))
	}
	return "That server (" + u.Label + ") could not be reached or broke off the answer. Check that it is running, or switch the engine back to the bundled one."
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
// same on both sides.
func statRows(server, modelled store.Run) []views.CompareRow {
	rows, _ := compareRows(nil, server, modelled)
	out := rows[:0]
	for _, r := range rows {
		if r.Kind == "stat" {
			out = append(out, r)
		}
	}
	return out
}
