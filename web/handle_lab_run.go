package web

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// errShuttingDown is the cancel cause of runs stopped by a server shutdown.
var errShuttingDown = errors.New("server shutting down")

// handleLabRun serves POST /labs/{slug}/run. It reads and validates the
// Datastar signals (problems go next to their knobs, with no run), then
// streams the run as patches over SSE, saves it when its final frame
// arrives and refreshes the run list. Closing the tab ends the request
// context, which cancels the lab.
func (s *Server) handleLabRun(c echo.Context) error {
	lab, ok := s.cfg.Catalog.Get(c.Param("slug"))
	if !ok {
		return notFound("lab called “" + truncateRunes(c.Param("slug"), 60) + "”")
	}
	info := lab.Info()
	ids := idsFor(info.Slug)
	knobs := lab.Knobs()

	var signals map[string]json.RawMessage
	if err := readSignals(c.Request(), &signals); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return echo.ErrStatusRequestEntityTooLarge
		}
		return badRequest("The lab settings could not be read. Reload the page and try again.", err)
	}
	raw := map[string]any{}
	if b, ok := signals[ids.NS]; ok {
		if err := json.Unmarshal(b, &raw); err != nil {
			return badRequest("The lab settings could not be read. Reload the page and try again.", err)
		}
	}
	labRun, fieldErrs := lab.Decode(raw)
	onServer, engineErr := s.readEngine(info.Slug, signals[engineSignal(ids)])
	if engineErr != nil {
		fieldErrs = append(fieldErrs, *engineErr)
	}
	guesses, guessErrs := parseGuesses(signals, ids, info)
	box := ""
	if onServer && len(fieldErrs) == 0 {
		fieldErrs, box = serverRefusal(c.QueryParam("w") != "", knobs, labRun.Values)
	}
	if len(fieldErrs) > 0 || guessErrs != [2]string{} {
		return s.rejectFields(c, ids, info, knobs, fieldErrs, guessErrs, box)
	}

	learner := learnerID(c)
	release, err := s.acquireRun(c, fmt.Sprintf("You already have %d runs going. Wait for one to finish, then run again.", s.cfg.MaxRuns))
	if err != nil {
		return err
	}
	defer release()

	ctx, stop, releaseCtx := s.runContext(c.Request().Context(), errors.New("run took too long"))
	defer releaseCtx()
	_, unregister := s.labRuns.add(labRunKey(learner, info.Slug, runToken(signals[ids.Token])), stop)
	defer unregister()
	ctx, workshopDone := s.workshopRunContext(c, ctx) // a workshop's learners run on the room's engines
	defer workshopDone()
	var twin *twinRun
	if onServer { // refused above from a workshop page: a room's runs stay on the room's engines
		twin = s.startTwin(ctx, labRun)
		ctx, twin.tally = s.cfg.Upstream.ServerContext(ctx)
	}

	st := openStream(c, http.StatusOK)
	closed := len(guesses) > 0 && closedGuess(c)
	if closed {
		guesses = nil // typed after the instructor closed predictions
	}
	p := &framePatcher{st: st, ctx: chartContext(c.Request().Context(), signals[ids.Width]), ids: ids, guesses: guesses,
		second: info.Second.Prediction != ""}
	if err := p.start(knobs); err != nil {
		return nil // the client left before the run began
	}
	if s.offersEngines(info.Slug) {
		_ = st.patch(p.ctx, ids.Prefix+"-engines", views.EngineComparison(ids.Prefix, pendingEngines(s.cfg.Upstream, twin != nil)))
	}
	if closed {
		_ = st.patch(p.ctx, ids.Prefix+"-err-guess", views.FieldError(ids.Prefix+"-err-guess",
			"Predictions are closed for this round, so this guess was not recorded. The run goes ahead."))
	}
	if twin != nil {
		// Every way out but showEngines leaves the slot saying both
		// engines are still running: settle it then.
		defer func() {
			if !twin.settled {
				_ = st.patch(p.ctx, ids.Prefix+"-engines", views.EngineComparison(ids.Prefix, unsettledEngines(s.cfg.Upstream)))
			}
		}()
	}
	shown := &shownPanels{}
	send := shown.wrap(p.frame)
	if twin != nil {
		send = markUnmeasured(info.Slug, send)
	}
	res := forwardRun(ctx, info.Slug, labRun.Start, s.cfg.Clock, s.cfg.PatchInterval, send)
	log := s.cfg.Logger.With("id", requestID(c), "lab", info.Slug)
	final := finalFrame(res)
	log.Info("run ended", "frames", res.Published, "sent", res.Sent, "final", final != nil, "canceled", res.Canceled, "err", res.Err)

	switch {
	case errors.Is(res.Cause, errShuttingDown):
		_ = p.ended("Server shutting down — this run was stopped. Run it again once the server is back.", "failed")
		return nil
	case res.SendErr != nil || c.Request().Context().Err() != nil:
		return nil // the learner closed the tab; nobody to tell
	case errors.Is(res.Cause, errStopped):
		_ = p.ended("Stopped. The engine has let go of this run; change the settings or press Run again.", "stopped")
		return nil
	case res.Canceled:
		_ = p.ended("Stopped: "+res.Cause.Error()+".", "failed")
		return nil
	case twin != nil && (res.Err != nil || twin.tally.Failure() != nil):
		// The server's own failure, whatever the lab made of it: no
		// figures of the failed run stay on the page.
		cause := cmp.Or(twin.tally.Failure(), res.Err)
		log.Warn("run on the upstream server failed", "err", cause)
		_ = p.clear()
		_ = p.ended(serverFailure(s.cfg.Upstream, cause, knobs, labRun.Values), "failed")
		return nil
	case res.Err != nil:
		log.Error("lab run failed", "err", res.Err)
		_ = p.ended("The run failed on our side (reference "+requestID(c)+"). Try again, or try other settings.", "failed")
		return nil
	case final == nil:
		_ = p.ended("The run ended without a result.", "failed")
		return nil
	}

	run := store.Run{Learner: learner, Lab: info.Slug, Params: labRun.Values, CreatedAt: s.cfg.Clock.Now(),
		Summary: store.Summary{Stats: final.Stats, Status: final.Status, Error: final.Error}, Panels: shown.panels()}
	if twin != nil {
		run.Engine = s.cfg.Upstream.Label
	}
	if !hadLearnerCookie(c) {
		// A fresh id per request would add a learner row per run: the run
		// is shown, not kept.
		_ = st.patch(p.ctx, ids.Prefix+"-error", views.ErrorBox(ids.Prefix,
			"This run was not saved: your browser did not send this site's cookie. Allow cookies for this site and reload the page to keep a list of your runs."))
		if twin != nil {
			s.showEngines(c, p, &run, 0, twin)
		}
		return nil
	}
	for _, g := range guesses {
		pr := &store.Prediction{Value: g.Value, Unit: g.Unit, Stat: g.Stat}
		if g.Stat == info.PredictionStat {
			run.Summary.Prediction = pr
		} else {
			run.Summary.Second = pr
		}
	}
	runID, err := s.store.SaveRun(c.Request().Context(), run)
	if err != nil {
		log.Error("save run", "err", err)
		_ = st.patch(p.ctx, ids.Prefix+"-error", views.ErrorBox(ids.Prefix, "This run finished but could not be saved to your run list."))
		return nil
	}
	s.workshopRunSaved(c, runID, run)
	if twin != nil {
		s.showEngines(c, p, &run, runID, twin)
	}
	runs, err := s.runList(c.Request().Context(), learner, lab)
	if err != nil {
		log.Error("list runs", "err", err)
		return nil
	}
	_ = st.patch(p.ctx, ids.Prefix+"-runs", views.RunList(runs))
	return nil
}

// parseGuesses reads the prediction signals, the second only where the
// lab asks for two: the guesses typed, and a message per bad one.
func parseGuesses(signals map[string]json.RawMessage, ids labIDs, info labs.Info) ([]views.Guess, [2]string) {
	var out []views.Guess
	var errs [2]string
	if info.Prediction == "" {
		return nil, errs
	}
	g, msg := parseGuess(signals[ids.Guess], info.PredictionUnit, info.PredictionStat)
	if g != nil {
		out = append(out, *g)
	}
	errs[0] = msg
	if sp := info.Second; sp.Prediction != "" {
		g, msg := parseGuess(signals[ids.Guess2], sp.Unit, sp.Stat)
		if g != nil {
			out = append(out, *g)
		}
		errs[1] = msg
	}
	return out, errs
}

// parseGuess reads one prediction signal: empty means no prediction.
func parseGuess(raw json.RawMessage, unit, stat string) (*views.Guess, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, "Your prediction must be a number."
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case string:
		x = strings.TrimSpace(x)
		if x == "" {
			return nil, ""
		}
		p, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return nil, "Your prediction must be a number."
		}
		f = p
	default:
		return nil, "Your prediction must be a number."
	}
	if f < 0 || f > 1e9 || f != f {
		return nil, "Your prediction must be a positive number."
	}
	return &views.Guess{Value: f, Unit: unit, Stat: stat}, ""
}

// rejectFields answers a run request with bad settings: each message
// lands under its knob, the others are cleared, and nothing runs.
func (s *Server) rejectFields(c echo.Context, ids labIDs, info labs.Info, knobs []labs.Knob, errs []labs.FieldError, guessErrs [2]string, box string) error {
	byKnob := map[string]string{}
	for _, e := range errs {
		byKnob[e.Knob] = e.Message
	}
	st := openStream(c, http.StatusUnprocessableEntity)
	ctx := c.Request().Context()
	for _, k := range knobs {
		if err := st.patch(ctx, ids.Prefix+"-err-"+k.Name, views.FieldError(ids.Prefix+"-err-"+k.Name, byKnob[k.Name])); err != nil {
			return nil
		}
		delete(byKnob, k.Name)
	}
	// What is left names no knob (a signal this lab does not have, sent
	// by a stale or edited page): it goes in the error box instead. A box
	// message (why settings conflict with the engine) goes there too.
	if box != "" {
		if err := st.patch(ctx, ids.Prefix+"-error", views.ErrorBox(ids.Prefix, box)); err != nil {
			return nil
		}
	} else if len(byKnob) > 0 {
		var msgs []string
		for _, e := range errs {
			if _, ok := byKnob[e.Knob]; ok {
				msgs = append(msgs, e.Message)
			}
		}
		if err := st.patch(ctx, ids.Prefix+"-error", views.ErrorBox(ids.Prefix, strings.Join(msgs, " ")+" Reload the page and try again.")); err != nil {
			return nil
		}
	}
	_ = st.patch(ctx, ids.Prefix+"-err-guess", views.FieldError(ids.Prefix+"-err-guess", guessErrs[0]))
	if info.Second.Prediction != "" {
		_ = st.patch(ctx, ids.Prefix+"-err-guess2", views.FieldError(ids.Prefix+"-err-guess2", guessErrs[1]))
	}
	_ = st.patch(ctx, ids.Prefix+"-status", views.Status(ids.Prefix, "Fix the settings marked above, then run again.", "failed"))
	return nil
}

// rejectRun answers a run request that cannot start (rate limit, bad body)
// with a message in the lab's error box.
func (s *Server) rejectRun(c echo.Context, status int, prefix, msg string) error {
	st := openStream(c, status)
	ctx := c.Request().Context()
	if err := st.patch(ctx, prefix+"-error", views.ErrorBox(prefix, msg)); err != nil {
		return err
	}
	return st.patch(ctx, prefix+"-status", views.Status(prefix, "Not run.", "failed"))
}
