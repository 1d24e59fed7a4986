package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// handleOpenGrade serves POST /practice/open/{id}/grade: the configured
// model grades one attempt against the rubric. Its verdicts are kept with
// the attempt as the model's opinion; the learner's ticks stay the score.
// A grading that fails is kept too, with its reason, so the page says why.
func (s *Server) handleOpenGrade(c echo.Context) error {
	if s.grader == nil {
		return notFound("model grader (this server has no grading model configured)")
	}
	q, err := s.openQuestionParam(c)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.FormValue("attempt"), 10, 64)
	if err != nil {
		return badRequest("The form did not say which attempt to grade. Reload the page and try again.", err)
	}
	ctx := c.Request().Context()
	a, err := s.store.PracticeAttempt(ctx, learnerID(c), id)
	if errors.Is(err, store.ErrAttemptNotFound) || err == nil && a.Drill != openDrill(q.ID) {
		return notFound("attempt with that number among yours")
	}
	if err != nil {
		return err
	}
	g, err := s.grader.grade(ctx, q, a.Answer)
	if ctx.Err() != nil {
		return fmt.Errorf("grade attempt %d: learner left: %w", id, ctx.Err())
	}
	rec := store.PracticeGrading{Attempt: id, Model: s.grader.model, At: s.cfg.Clock.Now()}
	var problem gradeProblem
	switch {
	case errors.As(err, &problem):
		rec.Problem = string(problem)
	case err != nil:
		return fmt.Errorf("grade attempt %d: %w", id, err)
	default:
		raw, err := json.Marshal(g)
		if err != nil {
			return fmt.Errorf("encode grading: %w", err)
		}
		rec.Verdicts = string(raw)
	}
	if err := s.store.SavePracticeGrading(ctx, learnerID(c), rec); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/open/%s?attempt=%d#grading", q.ID, id))
}

// openGrading is the kept grading of one attempt for the page, or nil.
func (s *Server) openGrading(ctx context.Context, learner string, attempt int64, rubric []string) (*views.OpenGrading, error) {
	rec, found, err := s.store.PracticeGradingOf(ctx, learner, attempt)
	if err != nil || !found {
		return nil, err
	}
	v := &views.OpenGrading{Model: rec.Model, Problem: rec.Problem, Total: len(rubric)}
	if rec.Verdicts == "" {
		return v, nil
	}
	var g practice.Grading
	if err := json.Unmarshal([]byte(rec.Verdicts), &g); err != nil {
		v.Problem = "The kept grading could not be read; ask for a new one."
		return v, nil
	}
	v.Graded, v.Covered = true, g.Covered()
	for _, verdict := range g.Verdicts {
		if verdict.Point < 0 || verdict.Point >= len(rubric) {
			continue // the rubric changed since this grading
		}
		v.Points = append(v.Points, views.GradedPoint{Rubric: rubric[verdict.Point], Covered: verdict.Covered,
			Quote: verdict.Quote, Dropped: verdict.Dropped})
	}
	return v, nil
}
