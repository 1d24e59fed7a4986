package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// handleRunReflection serves POST /labs/{slug}/runs/{id}/reflection (field
// reflection): the owner's one line on what surprised them; blank removes
// it. A plain form gets 303 to the reopened run; a Datastar post gets the
// box (or the run list holding it) patched in place, errors included, so
// the lab page the learner is on stays as it is.
func (s *Server) handleRunReflection(c echo.Context) error {
	lab, err := s.labFromPath(c)
	if err != nil {
		return err
	}
	slug := lab.Info().Slug
	datastar := c.Request().Header.Get("Datastar-Request") != ""
	view := c.FormValue("view")
	if view != "runs" {
		view = "run"
	}
	text := c.FormValue("reflection")

	r, err := s.learnerRun(c, c.Param("id"))
	if err == nil && r.Lab != slug {
		err = notFound("saved run “" + c.Param("id") + "” among your runs of this lab")
	}
	if err == nil {
		err = s.store.SetReflection(c.Request().Context(), learnerID(c), r.ID, text)
		if errors.Is(err, store.ErrInvalid) {
			msg := "Keep it to one line of plain text."
			if n := utf8.RuneCountInString(strings.TrimSpace(text)); n > store.MaxReflectionRunes {
				msg = fmt.Sprintf("Keep it to one line of at most %d characters (this one has %d).", store.MaxReflectionRunes, n)
			}
			err = unprocessable(msg, err)
		} else if errors.Is(err, store.ErrRunNotFound) {
			err = notFound("saved run “" + c.Param("id") + "” among your runs")
		}
	}
	if !datastar {
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, runURL(slug, r.ID)+"#run-reflection")
	}

	status, form := http.StatusOK, reflectionForm(slug, r, view)
	if err != nil {
		pe := publicError(err)
		if pe.Status >= 500 {
			return err // nothing the learner can fix: the central handler logs it
		}
		// The box posts to the run it was for. Built from the parsed id,
		// never the raw path: the action goes into a Datastar expression.
		id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
		status, form.Value, form.Error, form.Action = pe.Status, text, pe.Message, runURL(slug, max(id, 0))+"/reflection"
		if r.ID == 0 {
			form.Run = "" // no run of the learner's: no name to show
		}
		s.cfg.Logger.Info("reflection refused", "id", requestID(c), "status", pe.Status, "err", err)
	} else {
		// Show what was kept (trimmed, spaces folded), not what was typed.
		if fresh, gerr := s.store.GetRun(c.Request().Context(), learnerID(c), r.ID); gerr == nil {
			r = fresh
		}
		form = reflectionForm(slug, r, view)
		form.Saved = true
	}
	st := openStream(c, status)
	if view == "runs" && err == nil {
		runs, lerr := s.runList(c.Request().Context(), learnerID(c), lab)
		if lerr != nil {
			return nil // the stream is open: the box below still says it saved
		}
		if len(runs.Cols) > 0 && runs.Cols[0].ID == r.ID && runs.Latest != nil {
			runs.Latest.Saved = true
			return st.patch(c.Request().Context(), runs.Prefix+"-runs", views.RunList(runs))
		}
	}
	return st.patch(c.Request().Context(), form.ID, views.ReflectionBox(form))
}
