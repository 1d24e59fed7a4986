package web

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
)

// mockGrace is how long after the countdown a mock still counts as on time
// (the form's round trip).
const mockGrace = 15 * time.Second

// registerMock adds the mock interview routes.
func (s *Server) registerMock(site []echo.MiddlewareFunc) {
	e := s.echo
	e.POST("/practice/mock", s.handleMockStart, site...)
	e.GET("/practice/mock/:id", s.handleMock, site...)
	e.POST("/practice/mock/:id/pause", s.handleMockPause, site...)
	e.POST("/practice/mock/:id/resume", s.handleMockResume, site...)
	e.POST("/practice/mock/:id/submit", s.handleMockSubmit, site...)
}

// handleMockStart serves POST /practice/mock: it plans a mock from the
// learner's weakest lessons and redirects to it. minutes is optional.
func (s *Server) handleMockStart(c echo.Context) error {
	minutes := practice.DefaultMockMinutes
	if raw := strings.TrimSpace(c.FormValue("minutes")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > practice.MaxMockMinutes {
			return unprocessable(fmt.Sprintf("A mock lasts 1 to %d whole minutes (%d if you leave it empty).", practice.MaxMockMinutes, practice.DefaultMockMinutes), err)
		}
		minutes = n
	}
	ctx := c.Request().Context()
	statuses, err := s.store.PracticeStatuses(ctx, learnerID(c))
	if err != nil {
		return err
	}
	var slugs []string
	for _, l := range s.cfg.Lessons.All() {
		slugs = append(slugs, l.Slug)
	}
	if len(slugs) == 0 {
		return notFound("lesson to build a mock interview from")
	}
	strength := func(lesson string) (float64, bool) {
		var sum float64
		var n int
		for drill, st := range statuses {
			if st.Scored && s.drillLesson(drill) == lesson {
				sum += st.LastScore
				n++
			}
		}
		return sum / float64(max(n, 1)), n > 0
	}
	plan := practice.PlanMock(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), slugs, strength)
	m := store.Mock{Learner: learnerID(c), Started: s.cfg.Clock.Now(), Minutes: minutes}
	m.Items = append(m.Items, store.MockItem{Drill: openDrill(plan.Scenario)})
	for _, f := range plan.FollowUps {
		m.Items = append(m.Items, store.MockItem{Drill: openDrill(f)})
	}
	for _, e := range plan.Estimates {
		m.Items = append(m.Items, store.MockItem{Drill: estimateDrill(e.ID), Seed: e.Seed})
	}
	id, err := s.store.CreateMock(ctx, m)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/mock/%d", id))
}

// drillLesson is the lesson a stored drill id belongs to ("" if unknown).
func (s *Server) drillLesson(drill string) string {
	kind, id, _ := strings.Cut(drill, "/")
	if kind == "estimate" {
		t, _ := practice.LookupTemplate(id)
		return t.Lesson
	}
	q, _ := s.openQuestion(id)
	return q.Lesson
}

func (s *Server) loadMock(c echo.Context) (store.Mock, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return store.Mock{}, notFound("mock interview with that number")
	}
	m, err := s.store.Mock(c.Request().Context(), learnerID(c), id)
	if errors.Is(err, store.ErrMockNotFound) {
		return m, notFound("mock interview with that number among yours")
	}
	return m, err
}

func mockClock(m store.Mock) practice.MockClock {
	return practice.MockClock{Started: m.Started, Minutes: m.Minutes, PausedAt: m.PausedAt, Paused: m.Paused}
}

// handleMock serves GET /practice/mock/{id}.
func (s *Server) handleMock(c echo.Context) error {
	m, err := s.loadMock(c)
	if err != nil {
		return err
	}
	return s.renderMock(c, http.StatusOK, m, nil, "")
}

func (s *Server) handleMockPause(c echo.Context) error {
	m, err := s.loadMock(c)
	if err != nil {
		return err
	}
	err = s.store.PauseMock(c.Request().Context(), learnerID(c), m.ID, s.cfg.Clock.Now())
	if errors.Is(err, store.ErrPauseUsed) || errors.Is(err, store.ErrMockSubmitted) {
		return &httpError{Status: http.StatusConflict, Title: "Cannot pause", Message: "A mock can be paused once, before it ends; this one cannot be paused again.", Err: err}
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/mock/%d", m.ID))
}

func (s *Server) handleMockResume(c echo.Context) error {
	m, err := s.loadMock(c)
	if err != nil {
		return err
	}
	if err := s.store.ResumeMock(c.Request().Context(), learnerID(c), m.ID, s.cfg.Clock.Now()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/mock/%d", m.ID))
}

// handleMockSubmit serves POST /practice/mock/{id}/submit: estimates are
// graded, open answers kept for ticking; after the time the mock is kept
// and marked late. An unreadable estimate sends the form back with every
// answer still in it.
func (s *Server) handleMockSubmit(c echo.Context) error {
	m, err := s.loadMock(c)
	if err != nil {
		return err
	}
	if !m.Submitted.IsZero() {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/mock/%d", m.ID))
	}
	now := s.cfg.Clock.Now()
	drafts := make([]string, len(m.Items))
	answers := make([]*store.PracticeAttempt, len(m.Items))
	var problems []string
	for i, it := range m.Items {
		drafts[i] = c.FormValue("a" + strconv.Itoa(i+1))
		text := strings.TrimSpace(drafts[i])
		if text == "" {
			continue
		}
		a := &store.PracticeAttempt{Learner: m.Learner, Drill: it.Drill, Seed: it.Seed, Answer: text, At: now}
		if kind, id, _ := strings.Cut(it.Drill, "/"); kind == "estimate" {
			t, _ := practice.LookupTemplate(id)
			prob, err := t.Draw(it.Seed)
			if err != nil {
				return err
			}
			v, err := t.Unit.Parse(text)
			if err != nil {
				problems = append(problems, fmt.Sprintf("question %d: %s", i+1, publicParseMessage(err)))
				continue
			}
			a.Value, a.Correct, a.Score, a.Scored = v, prob.Answer, practice.Grade(v, prob.Answer), true
		}
		answers[i] = a
	}
	if len(problems) > 0 {
		return s.renderMock(c, http.StatusUnprocessableEntity, m, drafts, "Nothing was lost, but please fix: "+strings.Join(problems, "; ")+".")
	}
	late := mockClock(m).Left(now) < -mockGrace
	err = s.store.SubmitMock(c.Request().Context(), m.Learner, m.ID, answers, late, now, practice.Review)
	if errors.Is(err, store.ErrInvalid) {
		return s.renderMock(c, http.StatusUnprocessableEntity, m, drafts, fmt.Sprintf("An answer is too long: keep each under %d characters.", store.MaxAnswerLen))
	}
	if err != nil && !errors.Is(err, store.ErrMockSubmitted) {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/mock/%d", m.ID))
}
