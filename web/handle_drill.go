package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
)

// handleDrillAnswer serves POST /lessons/{slug}/drill: a real attempt
// (practice.MinWords words, as on the practice page) is saved and the
// drill, now showing the model answer, follows; a shorter one comes back
// in its box with the count.
func (s *Server) handleDrillAnswer(c echo.Context) error {
	slug := c.Param("slug")
	les, ok := s.cfg.Lessons.Get(slug)
	if !ok {
		return notFound("lesson called “" + truncateRunes(slug, 60) + "”")
	}
	if les.Drill.Question == "" {
		return notFound("drill for this lesson")
	}
	answer := c.FormValue("answer")
	if msg := practice.TooShort(answer); msg != "" {
		// The same rule as /practice/open/{slug}, which asks this question too.
		return s.renderLesson(c, http.StatusUnprocessableEntity, les, &drillDraft{answer: answer, problem: msg})
	}
	err := s.store.SaveDrillAnswer(c.Request().Context(), learnerID(c), slug, answer, s.cfg.Clock.Now())
	if errors.Is(err, store.ErrInvalid) {
		return unprocessable("That answer could not be saved: keep it under 8,000 characters of plain text.", err)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/lessons/"+slug+"#drill")
}
