package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// heartbeat keeps an idle room stream alive through proxies and finds a
// gone client (the write fails) even when the room is quiet.
const heartbeat = 20 * time.Second

// memberOf loads the room and the requesting learner's membership;
// ErrWorkshopNotFound means the learner has not joined.
func (s *Server) memberOf(c echo.Context) (*room, store.Member, error) {
	r, err := s.workshops.get(c.Request().Context(), c.Param("code"))
	if err != nil {
		return nil, store.Member{}, err
	}
	m, err := s.store.GetMember(c.Request().Context(), r.code, learnerID(c))
	return r, m, err
}

// handleWorkshopLearner serves GET /workshops/{code}: the learner's page,
// with the pushed lab set to the pushed preset.
func (s *Server) handleWorkshopLearner(c echo.Context) error {
	r, m, err := s.memberOf(c)
	if errors.Is(err, store.ErrWorkshopNotFound) {
		if isInstructor(c, r.workshop()) {
			return c.Redirect(http.StatusSeeOther, "/workshops/"+r.code+"/board")
		}
		return c.Redirect(http.StatusSeeOther, "/join/"+r.code)
	}
	if err != nil {
		return err
	}
	ws := r.workshop()
	stage, err := s.stageFor(c, ws)
	if err != nil {
		return err
	}
	w := views.WorkshopLearner{Banner: bannerFor(ws, m, s.cfg.Catalog), Round: roundFor(ws, s.cfg.Catalog), Stage: stage, Note: r.note(m.Learner),
		EventsURL: "/workshops/" + r.code + "/events?round=" + strconv.FormatInt(ws.PushSeq, 10)}
	if ws.Revealed {
		live, err := s.boardLive(c.Request().Context(), r)
		if err != nil {
			return err
		}
		w.Reveal = &live.Results
	}
	return render(c, http.StatusOK, views.WorkshopLearnerPage(s.pageWithJS(c, ws.Name, ""), w))
}

// bannerFor is the learner's strip.
func bannerFor(ws store.Workshop, m store.Member, cat *labs.Catalog) views.WorkshopBanner {
	b := views.WorkshopBanner{Code: ws.Code, Name: ws.Name, Member: m.Name, Locked: ws.Locked(), Ended: ws.Ended(), Revealed: ws.Revealed}
	if lab, ok := cat.Get(ws.PushedLab); ok {
		b.Pushed = lab.Info().Title + " · " + ws.PushedPreset
	}
	return b
}

// stageFor draws the pushed lab with the pushed preset's settings and an
// empty prediction; its runs post with the room's code so they land on the
// room's engines and board.
func (s *Server) stageFor(c echo.Context, ws store.Workshop) (views.WorkshopStage, error) {
	st := views.WorkshopStage{Round: ws.PushSeq, Preset: ws.PushedPreset}
	lab, ok := s.cfg.Catalog.Get(ws.PushedLab)
	if !ok {
		return st, nil
	}
	lv, err := s.labView(c, lab, 2)
	if err != nil {
		return st, err
	}
	signals, values, err := presetSignals(lab, ws.PushedPreset)
	if err != nil {
		return st, err
	}
	lv.Signals = signals
	lv.RunURL += "?w=" + ws.Code
	// A room's runs go to the room's engines, so the attached server is
	// no choice here (a run that asks for it anyway is refused).
	lv.Knobs = slices.DeleteFunc(lv.Knobs, func(k views.KnobView) bool { return k.Knob.Name == engineKnobName })
	for i, k := range lv.Knobs {
		lv.Knobs[i].Value = valueText(k.Knob, values[k.Knob.Name])
	}
	st.Lab = &lv
	return st, nil
}

// presetSignals is the lab's signal object set to the named preset, with
// the prediction empty, as JSON; and the preset's values.
func presetSignals(lab labs.Lab, preset string) (string, labs.Values, error) {
	ids := idsFor(lab.Info().Slug)
	values := labs.Values{}
	for _, k := range lab.Knobs() {
		values[k.Name] = k.Default
	}
	note := ""
	for _, p := range lab.Presets() {
		if p.Name == preset {
			for k, v := range p.Values {
				values[k] = v
			}
			note = p.Note
		}
	}
	b, err := json.Marshal(map[string]any{ids.NS: values, ids.Guess: "", ids.Guess2: "", ids.Busy: false, ids.Note: note})
	if err != nil {
		return "", nil, fmt.Errorf("preset signals: %w", err)
	}
	return string(b), values, nil
}

// handleWorkshopLearnerEvents serves the learner page's stream: the stage
// when the instructor pushes, the banner when the room's state changes,
// the note on the learner's last run and, once revealed, the room's
// results. Each is sent only when it changed, so a round costs a learner a
// few kilobytes, not a copy of everyone's runs.
func (s *Server) handleWorkshopLearnerEvents(c echo.Context) error {
	r, m, err := s.memberOf(c)
	if errors.Is(err, store.ErrWorkshopNotFound) {
		return &httpError{Status: http.StatusForbidden, Title: "Join the workshop first",
			Message: "This page follows a workshop for the learners in it. Join with the code your instructor shows, then open the workshop again."}
	}
	if err != nil {
		return err
	}
	round, _ := strconv.ParseInt(c.QueryParam("round"), 10, 64)
	r.mu.Lock()
	runAll := r.runAll // only triggers from now on start runs on this page
	r.mu.Unlock()
	wake, unsubscribe := r.learners.subscribe(m.Learner)
	defer unsubscribe()
	r.changed() // the roster shows who is on the page
	defer r.changed()

	rs := s.openRoomStream(c)
	ctx := c.Request().Context()
	var banner, roundLine, guessHelp, note, reveal string
	send := func() error {
		ws := r.workshop()
		if ws.PushSeq != round {
			st, err := s.roundStage(c, r, ws)
			if err != nil {
				return err
			}
			rs.arm()
			if err := rs.st.mergeHTML("#ws-stage", st.html); err != nil {
				return err
			}
			if st.signals != "" {
				if err := rs.signals(st.signals); err != nil {
					return err
				}
			}
			round = ws.PushSeq
			guessHelp = "" // the new stage drew its own
		}
		if err := rs.patchIfChanged(ctx, &banner, "ws-banner", views.WorkshopBannerStrip(bannerFor(ws, m, s.cfg.Catalog))); err != nil {
			return err
		}
		if err := rs.patchIfChanged(ctx, &roundLine, "ws-round", views.WorkshopRoundLine(roundFor(ws, s.cfg.Catalog))); err != nil {
			return err
		}
		if lab, ok := s.cfg.Catalog.Get(ws.PushedLab); ok && lab.Info().Prediction != "" && !ws.Ended() {
			prefix := idsFor(ws.PushedLab).Prefix
			help := views.GuessHelp(prefix, lab.Info().Second.Prediction != "", ws.Locked())
			if err := rs.patchIfChanged(ctx, &guessHelp, prefix+"-guess-help", help); err != nil {
				return err
			}
		}
		if err := rs.patchIfChanged(ctx, &note, "ws-note", views.WorkshopNote(r.note(m.Learner))); err != nil {
			return err
		}
		var res *views.RoomResults
		if ws.Revealed {
			live, err := s.boardLive(ctx, r)
			if err != nil {
				return err
			}
			res = &live.Results
		}
		if err := rs.patchIfChanged(ctx, &reveal, "ws-reveal", views.WorkshopReveal(res)); err != nil {
			return err
		}
		r.mu.Lock()
		n := r.runAll
		r.mu.Unlock()
		if n != runAll && ws.PushedLab != "" && !ws.Ended() {
			runAll = n
			return rs.patch(ctx, "ws-trigger", views.WorkshopTrigger(n, "/labs/"+ws.PushedLab+"/run?w="+ws.Code))
		}
		return nil
	}
	for {
		if err := send(); err != nil {
			return nil // the learner left, or their connection stalled: drop them
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.stopCtx.Done():
			return nil
		case <-wake:
		case <-time.After(heartbeat):
			if err := rs.signals(`{"_wsBeat": ` + strconv.FormatInt(time.Now().Unix(), 10) + `}`); err != nil {
				return nil
			}
		}
	}
}

// roundStage draws the round's stage once for the whole room: a push
// reaches two hundred learners as one render, not two hundred. It leaves
// out the learner's own run list (drawing it would cost a query each);
// the list comes back with their first run of the round.
func (s *Server) roundStage(c echo.Context, r *room, ws store.Workshop) (*sharedStage, error) {
	r.stageMu.Lock()
	defer r.stageMu.Unlock()
	if st := r.stage; st != nil && st.round == ws.PushSeq {
		return st, nil
	}
	anonymous := s.echo.NewContext(c.Request(), nil) // no learner: labView lists no runs
	stage, err := s.stageFor(anonymous, ws)
	if err != nil {
		return nil, err
	}
	html, err := renderString(c.Request().Context(), views.WorkshopStagePanel(stage))
	if err != nil {
		return nil, err
	}
	st := &sharedStage{round: ws.PushSeq, html: html}
	if stage.Lab != nil {
		st.signals = stage.Lab.Signals
	}
	r.stage = st
	return st, nil
}
