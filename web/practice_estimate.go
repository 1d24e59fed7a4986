package web

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// estimateDrill is the store's drill id of an estimation template.
func estimateDrill(id string) string { return "estimate/" + id }

// template finds the template named in the URL.
func estimateTemplate(c echo.Context) (practice.Template, error) {
	id := c.Param("id")
	t, ok := practice.LookupTemplate(id)
	if !ok {
		return t, notFound("estimation drill called “" + truncateRunes(id, 60) + "”")
	}
	return t, nil
}

// parseSeed reads a seed; the message says what a seed looks like.
func parseSeed(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, badRequest("The seed must be a whole number such as 42: it picks the numbers of the drill.", err)
	}
	return n, nil
}

// newSeed draws a seed for a fresh problem. Seeds stay small so the
// address is easy to share.
func newSeed() uint64 { return rand.Uint64N(1_000_000) }

// handleEstimate serves GET /practice/estimate/{id}?seed=N: the same seed
// always draws the same problem. Without a seed it redirects to a new one.
func (s *Server) handleEstimate(c echo.Context) error {
	t, err := estimateTemplate(c)
	if err != nil {
		return err
	}
	raw := c.QueryParam("seed")
	if raw == "" {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/estimate/%s?seed=%d", t.ID, newSeed()))
	}
	seed, err := parseSeed(raw)
	if err != nil {
		return err
	}
	return s.renderEstimate(c, http.StatusOK, t, seed, "", "")
}

// renderEstimate draws the problem for a seed with the learner's latest
// grade and history; draft and problem keep a refused answer in the box.
func (s *Server) renderEstimate(c echo.Context, status int, t practice.Template, seed uint64, draft, problem string) error {
	prob, err := t.Draw(seed)
	if err != nil {
		return err
	}
	v := views.EstimatePage{ID: t.ID, Title: t.Title, LessonSlug: t.Lesson, Seed: seed, Question: prob.Question,
		UnitName: t.Unit.Name, Example: t.Unit.Example, LabHref: "/labs/" + t.Lab, Preset: t.Preset,
		NextSeedHref: fmt.Sprintf("/practice/estimate/%s?seed=%d", t.ID, seed+1), Draft: draft, Error: problem}
	if les, ok := s.cfg.Lessons.Get(t.Lesson); ok {
		v.LessonTitle = les.Title
	}
	for _, g := range prob.Given {
		v.Given = append(v.Given, [2]string{g.Name, g.Value})
	}
	history, err := s.store.PracticeAttempts(c.Request().Context(), learnerID(c), estimateDrill(t.ID), 50)
	if err != nil {
		return err
	}
	for _, a := range history {
		if v.Result == nil && a.Seed == seed {
			v.Result = estimateResult(t, prob, a)
		}
		v.History = append(v.History, views.AttemptRow{At: views.FormatWhen(a.At), Answer: estimateAnswerText(t, a),
			Correct: t.Format(a.Correct), Score: scoreText(a.Score, a.Scored),
			Href: fmt.Sprintf("/practice/estimate/%s?seed=%d", t.ID, a.Seed)})
	}
	return render(c, status, views.EstimateView(s.page(c, t.Title, "practice"), v))
}

func estimateResult(t practice.Template, prob practice.Problem, a store.PracticeAttempt) *views.EstimateResult {
	r := &views.EstimateResult{Answer: a.Answer, ReadAs: t.Unit.ReadAs(a.Answer, a.Value), Correct: t.Format(prob.Answer)}
	switch {
	case a.Score >= 1:
		r.Verdict, r.ScoreClass = "Full marks: within 25%", "full"
	case a.Score > 0:
		r.Verdict, r.ScoreClass = "Half marks: within a factor of two", "partial"
	default:
		r.Verdict, r.ScoreClass = "No marks: more than a factor of two off", "none"
	}
	for _, st := range prob.Steps {
		r.Steps = append(r.Steps, [2]string{st.What, st.Formula})
	}
	return r
}

// estimateAnswerText is the learner's estimate as typed, followed by the
// value it was graded as when that reads differently: "7,5 ms (read as
// 7.5 ms)". The graded value is the one kept, so the note stays true even
// for an attempt read under older rules.
func estimateAnswerText(t practice.Template, a store.PracticeAttempt) string {
	if read := t.Unit.ReadAs(a.Answer, a.Value); read != "" {
		return a.Answer + " (read as " + read + ")"
	}
	return a.Answer
}

// givenLine writes a drawn problem's numbers on one line: "History
// lookup: 55 ms · Order lookup: 70 ms".
func givenLine(prob practice.Problem) string {
	given := make([]string, 0, len(prob.Given))
	for _, g := range prob.Given {
		given = append(given, g.Name+": "+g.Value)
	}
	return strings.Join(given, " · ")
}

// scoreText writes a score as a percentage, or a dash when not scored.
func scoreText(score float64, scored bool) string {
	if !scored {
		return "not scored"
	}
	return strconv.Itoa(int(score*100+0.5)) + "%"
}

// handleEstimateAnswer serves POST /practice/estimate/{id}: it grades the
// estimate against the drawn problem, keeps the attempt and redirects to
// the problem, which now shows the grade and the worked solution.
func (s *Server) handleEstimateAnswer(c echo.Context) error {
	t, err := estimateTemplate(c)
	if err != nil {
		return err
	}
	seed, err := parseSeed(c.FormValue("seed"))
	if err != nil {
		return err
	}
	answer := c.FormValue("answer")
	value, err := t.Unit.Parse(answer)
	if err != nil {
		return s.renderEstimate(c, http.StatusUnprocessableEntity, t, seed, answer, "That estimate could not be read: "+publicParseMessage(err)+".")
	}
	prob, err := t.Draw(seed)
	if err != nil {
		return err
	}
	now := s.cfg.Clock.Now()
	_, err = s.store.SavePracticeAttempt(c.Request().Context(), store.PracticeAttempt{Learner: learnerID(c),
		Drill: estimateDrill(t.ID), Seed: seed, Answer: answer, Value: value, Correct: prob.Answer,
		Score: practice.Grade(value, prob.Answer), Scored: true, At: now}, practice.Review)
	if errors.Is(err, store.ErrInvalid) {
		return unprocessable("That estimate could not be saved: write a number and a unit, for example "+t.Unit.Example+".", err)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/practice/estimate/%s?seed=%d#result", t.ID, seed))
}

// publicParseMessage drops the sentinel's prefix from a parse error: the
// rest was written for the learner.
func publicParseMessage(err error) string {
	msg := err.Error()
	prefix := practice.ErrUnreadable.Error() + ": "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}
