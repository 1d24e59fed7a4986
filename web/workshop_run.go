package web

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/web/store"
)

const ctxWorkshopRun = "workshopRun"

// workshopRun is a lab run a learner started from their workshop page.
type workshopRun struct {
	room    *room
	round   int64
	tracker *labs.BatchTracker
	once    sync.Once
	shared  int
	// locked: the instructor had closed predictions when the run began,
	// so a guess sent with it is not recorded.
	locked bool
}

// sharedWith stops following the run (once) and returns how many others
// shared its busiest batch, on the engine it ran on.
func (w *workshopRun) sharedWith() int {
	w.once.Do(func() { w.shared = w.tracker.Done() })
	return w.shared
}

// workshopRunContext is the lab runner's hook before a run: a run posted
// from a workshop page (?w=CODE) by a member of a running workshop runs
// on the room's engines. Anything else runs as usual. Call done when the
// run ends.
func (s *Server) workshopRunContext(c echo.Context, ctx context.Context) (_ context.Context, done func()) {
	code := c.QueryParam("w")
	if code == "" || !hadLearnerCookie(c) {
		return ctx, func() {}
	}
	r, err := s.workshops.get(c.Request().Context(), code)
	if err != nil {
		return ctx, func() {}
	}
	ws := r.workshop()
	if ws.Ended() {
		return ctx, func() {}
	}
	if _, err := s.store.GetMember(c.Request().Context(), code, learnerID(c)); err != nil {
		if !errors.Is(err, store.ErrWorkshopNotFound) {
			s.cfg.Logger.Error("workshop member", "id", requestID(c), "code", code, "err", err)
		}
		return ctx, func() {}
	}
	eng, err := s.workshops.engines(r)
	if err != nil {
		s.cfg.Logger.Error("workshop engines", "id", requestID(c), "code", code, "err", err)
		return ctx, func() {}
	}
	ctx, tracker := eng.Track(ctx)
	wr := &workshopRun{room: r, round: ws.PushSeq, tracker: tracker, locked: ws.Locked()}
	c.Set(ctxWorkshopRun, wr)
	return ctx, func() { wr.sharedWith() }
}

// closedGuess reports whether a run's guess comes after its workshop's
// instructor closed predictions: the run goes ahead, the guess does not
// count.
func closedGuess(c echo.Context) bool {
	wr, ok := c.Get(ctxWorkshopRun).(*workshopRun)
	return ok && wr.locked
}

// providerRate is the other tenants' traffic (requests/s) that a run's
// settings put on a simulated hosted provider. Such a run does not use
// the pool it was given: the lab starts a provider's engine of the run's
// own to carry that traffic (pipelinelab.Hosting.Engine, Run.Host), so in
// a workshop it never reaches the room's engine or its load dial. 0 for
// a run that stays on the pool.
func providerRate(params labs.Values) float64 {
	if v, ok := params[pipelinelab.KnobTenants].(float64); ok && v > 0 {
		return v
	}
	return 0
}

// workshopRunSaved is the lab runner's hook after a run is saved: a
// workshop run is recorded against its room and round, the learner gets a
// note on where it ran, and the board updates.
func (s *Server) workshopRunSaved(c echo.Context, runID int64, run store.Run) {
	wr, ok := c.Get(ctxWorkshopRun).(*workshopRun)
	if !ok {
		return
	}
	// On a hosted provider the tracker follows the provider's engine, so
	// the figure is the one the run's result states either way.
	shared := wr.sharedWith()
	rate := providerRate(run.Params)
	preset := presetUsed(s.cfg.Catalog, run.Lab, run.Params)
	if err := s.store.SaveWorkshopRun(c.Request().Context(), wr.room.code, runID, run.Learner, preset, wr.round, shared); err != nil {
		s.cfg.Logger.Error("save workshop run", "id", requestID(c), "code", wr.room.code, "err", err)
		return
	}
	wr.room.mu.Lock()
	wr.room.notes[run.Learner] = runNote(rate, wr.room.ws.LoadRPS, s.otherRoomEngine(run.Params), run.CreatedAt)
	wr.room.mu.Unlock()
	wr.room.learners.publish(run.Learner)
	wr.room.changed()
}

// ownSettings is the board's preset for a run whose knobs match none of
// its lab's presets.
const ownSettings = "own settings"

// presetUsed names the preset of lab slug whose every knob has the value
// the run had: the learner may have picked another preset than the round's
// or moved a knob, and the board should say what actually ran.
func presetUsed(cat *labs.Catalog, slug string, params labs.Values) string {
	lab, ok := cat.Get(slug)
	if !ok {
		return ownSettings
	}
	knobs := lab.Knobs()
	for _, p := range lab.Presets() {
		if slices.IndexFunc(knobs, func(k labs.Knob) bool { return valueText(k, p.Values[k.Name]) != valueText(k, params[k.Name]) }) < 0 {
			return p.Name
		}
	}
	return ownSettings
}
