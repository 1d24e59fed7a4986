package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/store"
)

// handleDrillAnswer serves POST /lessons/{slug}/drill: it saves the
// learner's answer and redirects to the drill, where the model answer is
// now shown.
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
	if strings.TrimSpace(answer) == "" {
		return unprocessable("Your answer is empty. Write a few sentences, then save to see the model answer.", nil)
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
