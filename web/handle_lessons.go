package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// handleLessons serves /lessons: the lesson index with progress.
func (s *Server) handleLessons(c echo.Context) error {
	items, pr, err := s.lessonItems(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.LessonIndexPage(s.page(c, "Lessons", "lessons"), pr, items))
}
