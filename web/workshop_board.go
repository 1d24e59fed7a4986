package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// handleWorkshopBoard serves GET /workshops/{code}/board. With ?key= (the
// private instructor link) it checks the secret, sets the instructor
// cookie on this device and redirects, so the secret leaves the address
// bar at once.
func (s *Server) handleWorkshopBoard(c echo.Context) error {
	r, err := s.workshops.get(c.Request().Context(), c.Param("code"))
	if err != nil {
		return err
	}
	if key := c.QueryParam("key"); key != "" {
		if !secretMatches(key, r.workshop().SecretHash) {
			return notInstructor()
		}
		s.setInstructorCookie(c, r.code, key)
		return c.Redirect(http.StatusSeeOther, "/workshops/"+r.code+"/board")
	}
	_, ws, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	if ws.LoadRPS > 0 && !ws.Ended() {
		// After a restart the dial resumes when the board reopens.
		if _, err := s.workshops.engines(r); err != nil {
			return err
		}
	}
	live, err := s.boardLive(c.Request().Context(), r)
	if err != nil {
		return err
	}
	ck, _ := c.Cookie(instructorCookieName(ws.Code)) // present: instructorRoom checked it
	origin := s.requestOrigin(c)
	b := views.WorkshopBoard{Code: ws.Code, Name: ws.Name, JoinURL: strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://") + "/join",
		InstructorURL: origin + "/workshops/" + ws.Code + "/board?key=" + url.QueryEscape(ck.Value),
		Ended:         ws.Ended(), Round: ws.PushSeq, PushedPreset: ws.PushedPreset, Locked: ws.Locked(), Revealed: ws.Revealed,
		LoadRPS: ws.LoadRPS, MaxLoadRPS: s.cfg.Workshops.MaxLoadRPS, EventsURL: "/workshops/" + ws.Code + "/board/events", Live: live}
	if lab, ok := s.cfg.Catalog.Get(ws.PushedLab); ok {
		b.PushedLab = lab.Info().Title
	}
	b.PushedProvider = presetProvider(s.cfg.Catalog, ws.PushedLab, ws.PushedPreset)
	b.JoinQR = joinQR(origin + "/join/" + ws.Code)
	for _, l := range s.cfg.Catalog.All() {
		ch := views.LabChoice{Slug: l.Info().Slug, Title: l.Info().Title}
		for _, p := range l.Presets() {
			ch.Presets = append(ch.Presets, p.Name)
		}
		if len(ch.Presets) > 0 {
			b.Labs = append(b.Labs, ch)
		}
	}
	return render(c, http.StatusOK, views.WorkshopBoardPage(s.pageWithJS(c, ws.Name+" — board", ""), b))
}

// requestOrigin is the scheme and host the browser used.
func (s *Server) requestOrigin(c echo.Context) string {
	scheme := "http"
	if s.overTLS(c.Request()) {
		scheme = "https"
	}
	return scheme + "://" + c.Request().Host
}

// handleWorkshopBoardEvents streams the board's live panels: on every
// change in the room, and every second for the load panel, at most once
// per BoardInterval, and only the panels whose HTML changed.
func (s *Server) handleWorkshopBoardEvents(c echo.Context) error {
	r, _, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	var signals struct {
		Width float64 `json:"wsChartW"`
	}
	_ = readSignals(c.Request(), &signals) // without a width the charts keep their default layout
	wake, unsubscribe := r.board.subscribe("")
	defer unsubscribe()
	rs := s.openRoomStream(c)
	ctx := c.Request().Context()
	draw := boardChartContext(ctx, signals.Width)
	last := make([]string, 5)
	clk := s.cfg.Clock
	tick := clock.NewTicker(clk, time.Second)
	defer tick.Stop()
	var sentAt time.Time
	for {
		if wait := s.cfg.Workshops.BoardInterval - clk.Now().Sub(sentAt); !sentAt.IsZero() && wait > 0 {
			select {
			case <-ctx.Done():
				return nil
			case <-clk.After(wait):
			}
		}
		live, err := s.boardLive(ctx, r)
		if err != nil {
			s.cfg.Logger.Error("board update", "id", requestID(c), "code", r.code, "err", err)
			return nil
		}
		for i, p := range []struct {
			id   string
			comp templ.Component
		}{
			{"ws-counts", views.BoardCounts(live)},
			{"ws-load-panel", views.BoardLoad(live.Load)},
			{"ws-results", views.BoardResults(live.Results)},
			{"ws-roster", views.BoardRoster(live.Roster)},
			{"ws-runs", views.BoardRuns(live.Runs)},
		} {
			if err := rs.patchIfChanged(draw, &last[i], p.id, p.comp); err != nil {
				return nil // the board left or stalled: drop it
			}
		}
		sentAt = clk.Now()
		select {
		case <-ctx.Done():
			return nil
		case <-s.stopCtx.Done():
			return nil
		case <-wake:
		case <-tick.C:
			if r.startedEngines() == nil {
				continue
			}
		}
	}
}

// handleWorkshopPush serves POST /workshops/{code}/push (fields lab and
// preset): the room moves to that lab, set to that preset, in a new round.
func (s *Server) handleWorkshopPush(c echo.Context) error {
	r, ws, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	slug := c.FormValue("lab")
	lab, ok := s.cfg.Catalog.Get(slug)
	if !ok {
		return unprocessable("There is no lab called “"+truncateRunes(slug, 60)+"”. Pick one from the board.", nil)
	}
	preset := c.FormValue("preset")
	found := false
	for _, p := range lab.Presets() {
		found = found || p.Name == preset
	}
	if !found {
		return unprocessable("The lab “"+lab.Info().Title+"” has no preset called “"+truncateRunes(preset, 60)+"”. Pick one from the board.", nil)
	}
	if ws.Ended() {
		return workshopEnded()
	}
	if _, err := s.store.PushLab(c.Request().Context(), r.code, slug, preset, s.cfg.Clock.Now()); err != nil {
		return s.roomWriteError(err)
	}
	if err := s.reloadRoom(c, r); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/workshops/"+r.code+"/board")
}

func workshopEnded() error {
	return &httpError{Status: http.StatusGone, Title: "This workshop has ended",
		Message: "The workshop has ended, so it can no longer be changed. Its export stays available on the board."}
}

// roomWriteError maps the store's answers to a room change.
func (s *Server) roomWriteError(err error) error {
	switch {
	case errors.Is(err, store.ErrWorkshopEnded):
		return workshopEnded()
	case errors.Is(err, store.ErrWorkshopNotFound):
		return noWorkshop()
	}
	return err
}

// reloadRoom reads the room's state back after a change and tells every
// page.
func (s *Server) reloadRoom(c echo.Context, r *room) error {
	ws, err := s.store.GetWorkshop(c.Request().Context(), r.code)
	if err != nil {
		return fmt.Errorf("reload workshop: %w", err)
	}
	r.setWorkshop(ws)
	if eng := r.startedEngines(); eng != nil {
		eng.SetLoad(map[bool]float64{true: 0, false: ws.LoadRPS}[ws.Ended()])
	}
	return nil
}

// handleWorkshopSettings serves POST /workshops/{code}/settings: any of
// predictions (open, closed), reveal (on, off) and load (requests/s of
// other tenants). Every field is checked before anything is saved.
func (s *Server) handleWorkshopSettings(c echo.Context) error {
	r, ws, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	set := store.WorkshopSettings{Locked: ws.Locked(), Revealed: ws.Revealed, LoadRPS: ws.LoadRPS}
	switch v := c.FormValue("predictions"); v {
	case "":
	case "open", "closed":
		set.Locked = v == "closed"
	default:
		return unprocessable("Predictions can be “open” or “closed”.", nil)
	}
	switch v := c.FormValue("reveal"); v {
	case "":
	case "on", "off":
		set.Revealed = v == "on"
	default:
		return unprocessable("Reveal can be “on” or “off”.", nil)
	}
	startEngines := false
	if v := strings.TrimSpace(c.FormValue("load")); v != "" {
		rps, err := strconv.ParseFloat(v, 64)
		if err != nil || rps < 0 || rps > s.cfg.Workshops.MaxLoadRPS || rps != rps {
			return unprocessable(fmt.Sprintf("The load must be a number of requests per second from 0 to %g.", s.cfg.Workshops.MaxLoadRPS), err)
		}
		set.LoadRPS, startEngines = rps, true
	}
	if ws.Ended() {
		return workshopEnded()
	}
	if err := s.store.UpdateWorkshopSettings(c.Request().Context(), r.code, set, s.cfg.Clock.Now()); err != nil {
		return s.roomWriteError(err)
	}
	if startEngines {
		if _, err := s.workshops.engines(r); err != nil {
			return err
		}
	}
	if err := s.reloadRoom(c, r); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/workshops/"+r.code+"/board")
}

// handleWorkshopEnd serves POST /workshops/{code}/end: no more joins, the
// load stops; learners keep their runs. Ending twice is harmless.
func (s *Server) handleWorkshopEnd(c echo.Context) error {
	r, _, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	if err := s.store.EndWorkshop(c.Request().Context(), r.code, s.cfg.Clock.Now()); err != nil {
		return s.roomWriteError(err)
	}
	if err := s.reloadRoom(c, r); err != nil {
		return err
	}
	s.workshops.retireEngines(r, s.cfg.RunTimeout+streamSlack)
	s.cfg.Logger.Info("workshop ended", "id", requestID(c), "code", r.code)
	return c.Redirect(http.StatusSeeOther, "/workshops/"+r.code+"/board")
}

// handleWorkshopRunAll serves POST /workshops/{code}/runall: every open
// learner page starts a run of the pushed lab at once, with its own
// settings and guess.
func (s *Server) handleWorkshopRunAll(c echo.Context) error {
	r, ws, err := s.instructorRoom(c)
	if err != nil {
		return err
	}
	if ws.Ended() {
		return workshopEnded()
	}
	if _, ok := s.cfg.Catalog.Get(ws.PushedLab); !ok {
		return unprocessable("Push a lab to the room first; then everyone can run it at once.", nil)
	}
	r.mu.Lock()
	r.runAll++
	r.mu.Unlock()
	r.learners.publish("")
	return c.Redirect(http.StatusSeeOther, "/workshops/"+r.code+"/board")
}
