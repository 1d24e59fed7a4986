package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons"
	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/views"
)

// handleLesson serves /lessons/{slug}: the lesson, its labs inline, its
// drill and the learner's done mark.
func (s *Server) handleLesson(c echo.Context) error {
	slug := c.Param("slug")
	les, ok := s.cfg.Lessons.Get(slug)
	if !ok {
		return notFound("lesson called “" + truncateRunes(slug, 60) + "”")
	}
	return s.renderLesson(c, http.StatusOK, les, nil)
}

// drillDraft is a drill answer sent back unsaved, with the reason.
type drillDraft struct{ answer, problem string }

// renderLesson draws a lesson; a refused drill answer stays in its box
// with the reason beside it.
func (s *Server) renderLesson(c echo.Context, status int, les lessons.Lesson, draft *drillDraft) error {
	slug := les.Slug
	ctx := c.Request().Context()
	learner := learnerID(c)
	done, err := s.store.DoneLessons(ctx, learner)
	if err != nil {
		return err
	}
	answer, answered, err := s.store.DrillAnswer(ctx, learner, slug)
	if err != nil {
		return err
	}
	v := views.LessonPage{Lesson: les, Answer: answer, Answered: answered, Total: len(s.cfg.Lessons.All()),
		DrillMinWords: practice.MinWords}
	if draft != nil {
		v.Answer, v.DrillError = draft.answer, draft.problem
	}
	_, v.Done = done[slug]
	v.Prev, v.Next = s.cfg.Lessons.Neighbours(slug)
	for i, l := range s.cfg.Lessons.All() {
		if l.Slug == slug {
			v.Number = i + 1
		}
	}
	for _, labSlug := range les.Labs {
		lab, ok := s.cfg.Catalog.Get(labSlug)
		if !ok {
			s.cfg.Logger.Warn("lesson names an unknown lab", "lesson", slug, "lab", labSlug)
			continue
		}
		lv, err := s.labView(c, lab, 2)
		if err != nil {
			return err
		}
		v.Labs = append(v.Labs, lv)
	}
	p := s.page(c, les.Title, "lessons")
	if len(v.Labs) > 0 {
		p = s.pageWithJS(c, les.Title, "lessons")
	}
	p.Description = les.Summary
	return render(c, status, views.LessonView(p, v))
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
