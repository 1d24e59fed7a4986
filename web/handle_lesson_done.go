package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// handleLessonDone serves POST /lessons/{slug}/done (form field done=1 or
// 0) and redirects back to the lesson.
func (s *Server) handleLessonDone(c echo.Context) error {
	slug := c.Param("slug")
	if _, ok := s.cfg.Lessons.Get(slug); !ok {
		return notFound("lesson called “" + truncateRunes(slug, 60) + "”")
	}
	var done bool
	switch c.FormValue("done") {
	case "1", "true", "":
		done = true
	case "0", "false":
		done = false
	default:
		return badRequest("The done field must be 1 or 0.", nil)
	}
	if err := s.store.SetLessonDone(c.Request().Context(), learnerID(c), slug, done, s.cfg.Clock.Now()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/lessons/"+slug)
}
