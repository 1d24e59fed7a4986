package web

import (
	"errors"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// openQuestion is a lesson's own drill or one of its follow-ups.
type openQuestion struct {
	ID, Lesson, Title, Question string
	Rubric                      []string
	ModelHTML                   string // trusted: embedded lesson Markdown or escaped follow-up text
}

// openDrill is the store's drill id of an open question.
func openDrill(id string) string { return "open/" + id }

// openQuestions lists every lesson's drill followed by its follow-ups.
func (s *Server) openQuestions() []openQuestion {
	follow := practice.FollowUps()
	var out []openQuestion
	for _, les := range s.cfg.Lessons.All() {
		if les.Drill.Question != "" {
			out = append(out, openQuestion{ID: les.Slug, Lesson: les.Slug, Title: les.Drill.Question,
				Question: les.Drill.Question, Rubric: les.Drill.Rubric, ModelHTML: les.Drill.ModelAnswer})
		}
		for _, f := range follow {
			if f.Lesson != les.Slug {
				continue
			}
			var b strings.Builder
			for _, p := range f.Answer {
				b.WriteString("<p>" + html.EscapeString(p) + "</p>\n")
			}
			out = append(out, openQuestion{ID: f.ID, Lesson: f.Lesson, Title: "Follow-up: " + f.Question,
				Question: f.Question, Rubric: f.Rubric, ModelHTML: b.String()})
		}
	}
	return out
}

func (s *Server) openQuestion(id string) (openQuestion, bool) {
	for _, q := range s.openQuestions() {
		if q.ID == id {
			return q, true
		}
	}
	return openQuestion{}, false
}

func (s *Server) openQuestionParam(c echo.Context) (openQuestion, error) {
	id := c.Param("id")
	q, ok := s.openQuestion(id)
	if !ok {
		return q, notFound("open question called “" + truncateRunes(id, 60) + "”")
	}
	return q, nil
}

// handleOpen serves GET /practice/open/{id}: the question, and once
// answered the chosen attempt (?attempt=N, else the latest) beside the
// model answer with the rubric.
func (s *Server) handleOpen(c echo.Context) error {
	q, err := s.openQuestionParam(c)
	if err != nil {
		return err
	}
	var chosen int64
	if raw := c.QueryParam("attempt"); raw != "" {
		if chosen, err = strconv.ParseInt(raw, 10, 64); err != nil {
			return badRequest("The attempt must be a number from your history on this page.", err)
		}
	}
	return s.renderOpen(c, http.StatusOK, q, chosen, "", "")
}

func (s *Server) renderOpen(c echo.Context, status int, q openQuestion, chosen int64, draft, problem string) error {
	v := views.OpenPage{ID: q.ID, LessonSlug: q.Lesson, Question: q.Question, Rubric: q.Rubric,
		Draft: draft, Error: problem, MinWords: practice.MinWords}
	if s.grader != nil {
		v.GraderModel = s.grader.model
	}
	if les, ok := s.cfg.Lessons.Get(q.Lesson); ok {
		v.LessonTitle = les.Title
	}
	for _, other := range s.openQuestions() {
		if other.Lesson == q.Lesson && other.ID != q.ID {
			v.Related = append(v.Related, views.PracticeItem{Href: "/practice/open/" + other.ID, Title: other.Title})
		}
	}
	history, err := s.store.PracticeAttempts(c.Request().Context(), learnerID(c), openDrill(q.ID), 50)
	if err != nil {
		return err
	}
	for _, a := range history {
		if v.Attempt == nil && (chosen == 0 || a.ID == chosen) {
			v.Attempt = &views.OpenAttempt{ID: a.ID, Answer: a.Answer, Ticked: map[int]bool{}}
			for _, t := range a.Ticks {
				v.Attempt.Ticked[t] = true
			}
			if a.Scored {
				v.Attempt.Score = scoreText(a.Score, true)
			}
			v.ModelHTML = q.ModelHTML
			if v.Attempt.Grading, err = s.openGrading(c.Request().Context(), learnerID(c), a.ID, q.Rubric); err != nil {
				return err
			}
		}
		v.History = append(v.History, views.AttemptRow{At: views.FormatWhen(a.At), Answer: truncateRunes(a.Answer, 80),
			Correct: "see the model answer", Score: scoreText(a.Score, a.Scored),
			Href: fmt.Sprintf("/practice/open/%s?attempt=%d#compare", q.ID, a.ID)})
	}
	if chosen > 0 && v.Attempt == nil {
		return notFound("attempt with that number among yours")
	}
	return render(c, status, views.OpenView(s.page(c, "Open question", "practice"), v))
}

// handleOpenAnswer serves POST /practice/open/{id}: a real attempt (at
// least practice.MinWords words) is kept as a new attempt and the model
// answer is shown beside it; a shorter one comes back with the text kept.
func (s *Server) handleOpenAnswer(c echo.Context) error {
	q, err := s.openQuestionParam(c)
	if err != nil {
		return err
	}
	answer := c.FormValue("answer")
	if msg := practice.TooShort(answer); msg != "" {
		return s.renderOpen(c, http.StatusUnprocessableEntity, q, -1, answer, msg)
	}
	id, err := s.store.SavePracticeAttempt(c.Request().Context(), store.PracticeAttempt{Learner: learnerID(c),
		Drill: openDrill(q.ID), Answer: answer, At: s.cfg.Clock.Now()}, practice.Review)
	if errors.Is(err, store.ErrInvalid) {
		return s.renderOpen(c, http.StatusUnprocessableEntity, q, -1, truncateRunes(answer, store.MaxAnswerLen/4),
			fmt.Sprintf("That answer could not be saved: keep it under %d characters of plain text.", store.MaxAnswerLen))
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/open/%s?attempt=%d#compare", q.ID, id))
}

// handleOpenScore serves POST /practice/open/{id}/score: the rubric points
// the learner ticked on one attempt; the score is the share ticked.
func (s *Server) handleOpenScore(c echo.Context) error {
	q, err := s.openQuestionParam(c)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.FormValue("attempt"), 10, 64)
	if err != nil {
		return badRequest("The form did not say which attempt to score. Reload the page and tick again.", err)
	}
	form, err := c.FormParams()
	if err != nil {
		return badRequest("The ticks could not be read. Reload the page and tick again.", err)
	}
	var ticks []int
	for _, raw := range form["tick"] {
		t, err := strconv.Atoi(raw)
		if err != nil || t < 0 || t >= len(q.Rubric) {
			return unprocessable("One of the ticks is not a point of this rubric. Reload the page and tick again.", err)
		}
		ticks = append(ticks, t)
	}
	a, err := s.store.PracticeAttempt(c.Request().Context(), learnerID(c), id)
	if errors.Is(err, store.ErrAttemptNotFound) || err == nil && a.Drill != openDrill(q.ID) {
		return notFound("attempt with that number among yours")
	}
	if err != nil {
		return err
	}
	err = s.store.ScorePracticeAttempt(c.Request().Context(), learnerID(c), id, ticks,
		practice.RubricScore(ticks, len(q.Rubric)), s.cfg.Clock.Now(), practice.Review)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/open/%s?attempt=%d#compare", q.ID, id))
}
