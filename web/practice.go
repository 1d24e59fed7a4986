package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// registerPractice adds the practice routes to the site chain.
func (s *Server) registerPractice(site []echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/practice", s.handlePractice, site...)
	e.GET("/practice/review", s.handlePracticeReview, site...)
	e.GET("/practice/export.md", s.handlePracticeExport, site...)
	e.GET("/practice/estimate/:id", s.handleEstimate, site...)
	e.POST("/practice/estimate/:id", s.handleEstimateAnswer, site...)
	e.GET("/practice/open/:id", s.handleOpen, site...)
	e.POST("/practice/open/:id", s.handleOpenAnswer, site...)
	e.POST("/practice/open/:id/score", s.handleOpenScore, site...)
	e.POST("/practice/open/:id/grade", s.handleOpenGrade, site...)
	s.registerMock(site)
}

// handlePractice serves /practice: every drill grouped by lesson and kind
// with the learner's last score and review state.
func (s *Server) handlePractice(c echo.Context) error {
	ctx := c.Request().Context()
	statuses, err := s.store.PracticeStatuses(ctx, learnerID(c))
	if err != nil {
		return err
	}
	now := s.cfg.Clock.Now()
	v := views.PracticeIndex{}
	for _, les := range s.cfg.Lessons.All() {
		g := views.PracticeGroup{LessonTitle: les.Title, LessonSlug: les.Slug}
		for _, t := range practice.Templates() {
			if t.Lesson == les.Slug {
				g.Estimates = append(g.Estimates, practiceItem("/practice/estimate/"+t.ID, t.Title, statuses[estimateDrill(t.ID)], now))
			}
		}
		for _, q := range s.openQuestions() {
			if q.Lesson == les.Slug {
				g.Open = append(g.Open, practiceItem("/practice/open/"+q.ID, q.Title, statuses[openDrill(q.ID)], now))
			}
		}
		v.Total += len(g.Estimates) + len(g.Open)
		for _, it := range append(g.Estimates, g.Open...) {
			if it.Due == "due now" {
				v.DueCount++
			}
		}
		v.Groups = append(v.Groups, g)
	}
	p := s.page(c, "Practice", "practice")
	p.Description = "Interview drills on LLM serving latency: estimates graded against the engine, open questions scored on a rubric."
	return render(c, http.StatusOK, views.PracticeIndexView(p, v))
}

func practiceItem(href, title string, st store.PracticeStatus, now time.Time) views.PracticeItem {
	it := views.PracticeItem{Href: href, Title: title, Attempts: st.Attempts}
	if st.Scored {
		it.LastScore = scoreText(st.LastScore, true)
	}
	if !st.Due.IsZero() {
		it.Due = dueText(st.Due, now)
	}
	return it
}

// dueText says when a review is due, in whole days.
func dueText(due, now time.Time) string {
	if !due.After(now) {
		return "due now"
	}
	days := int(due.Sub(now).Hours()/24 + 0.999)
	if days <= 1 {
		return "due tomorrow"
	}
	return fmt.Sprintf("due in %d days", days)
}

// practiceDueCount is how many drills are due for review (the home page's
// line); an error reads as none, so the home page never fails on it.
func (s *Server) practiceDueCount(c echo.Context) int {
	due, err := s.store.DuePractice(c.Request().Context(), learnerID(c), s.cfg.Clock.Now())
	if err != nil {
		c.Logger().Warn(fmt.Errorf("due practice: %w", err))
		return 0
	}
	return len(due)
}

// handlePracticeReview serves /practice/review: today's short review, the
// due drills (at most ten) with a link to each. An estimate comes back with
// fresh numbers.
func (s *Server) handlePracticeReview(c echo.Context) error {
	due, err := s.store.DuePractice(c.Request().Context(), learnerID(c), s.cfg.Clock.Now())
	if err != nil {
		return err
	}
	g := views.PracticeGroup{LessonTitle: "Due today"}
	for _, d := range due[:min(len(due), 10)] {
		kind, id, _ := strings.Cut(d, "/")
		switch kind {
		case "estimate":
			if t, ok := practice.LookupTemplate(id); ok {
				g.Estimates = append(g.Estimates, views.PracticeItem{Href: "/practice/estimate/" + id, Title: t.Title})
			}
		case "open":
			if q, ok := s.openQuestion(id); ok {
				g.Open = append(g.Open, views.PracticeItem{Href: "/practice/open/" + id, Title: q.Title})
			}
		}
	}
	return render(c, http.StatusOK, views.PracticeReviewView(s.page(c, "Review", "practice"), g))
}
