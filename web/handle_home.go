package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/web/views"
)

// handleHome serves /: the course intro, the learner's progress, lessons and labs.
func (s *Server) handleHome(c echo.Context) error {
	items, pr, err := s.lessonItems(c)
	if err != nil {
		return err
	}
	h := views.Home{Progress: pr, Lessons: items, Labs: s.labItems(), PracticeDue: s.practiceDueCount(c),
		Attached: s.attachedServer()}
	for _, it := range items {
		if !it.Done {
			l := it.Lesson
			h.Next = &l
			break
		}
	}
	p := s.page(c, "", "home")
	p.Description = "An interactive course on LLM serving latency: lessons beside live labs."
	return render(c, http.StatusOK, views.HomePage(p, h))
}

// lessonItems lists the lessons with the learner's done marks.
func (s *Server) lessonItems(c echo.Context) ([]views.LessonItem, views.Progress, error) {
	done, err := s.store.DoneLessons(c.Request().Context(), learnerID(c))
	if err != nil {
		return nil, views.Progress{}, err
	}
	all := s.cfg.Lessons.All()
	items := make([]views.LessonItem, 0, len(all))
	pr := views.Progress{Total: len(all)}
	for _, l := range all {
		_, d := done[l.Slug]
		if d {
			pr.Done++
		}
		it := views.LessonItem{Lesson: l, Done: d}
		for _, slug := range l.Labs {
			if _, ok := s.cfg.Catalog.Get(slug); ok {
				it.HasLab = true
			}
		}
		items = append(items, it)
	}
	return items, pr, nil
}

// labItems lists the catalogue with the lessons that teach each lab.
func (s *Server) labItems() []views.LabItem {
	var out []views.LabItem
	for _, l := range s.cfg.Catalog.All() {
		info := l.Info()
		out = append(out, views.LabItem{Info: info, Taught: s.taughtIn(info.Slug, info.Lesson)})
	}
	return out
}
