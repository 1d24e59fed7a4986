package web

import (
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// maxMocksCharted is how many earlier mocks the scorecard's chart shows.
const maxMocksCharted = 12

// renderMock draws a mock: its questions while it runs (with drafts and a
// problem after a refused submit), its scorecard once submitted.
func (s *Server) renderMock(c echo.Context, status int, m store.Mock, drafts []string, problem string) error {
	now := s.cfg.Clock.Now()
	v := views.MockPage{ID: m.ID, Running: m.Submitted.IsZero(), Paused: !m.PausedAt.IsZero(), PauseUsed: m.PauseUsed,
		SecondsLeft: int(mockClock(m).Left(now).Seconds()), Late: m.Late, Error: problem}
	for i, it := range m.Items {
		iv, err := s.mockItemView(i, it)
		if err != nil {
			return err
		}
		if i < len(drafts) {
			iv.Draft = drafts[i]
		}
		v.Items = append(v.Items, iv)
	}
	if !v.Running {
		v.Areas, v.Overall = s.mockScorecard(m)
		mocks, err := s.store.Mocks(c.Request().Context(), m.Learner, maxMocksCharted)
		if err != nil {
			return err
		}
		for _, old := range mocks {
			if old.Submitted.IsZero() {
				continue
			}
			if t := tallyMock(s.mockScores(old)); t.marked > 0 {
				v.History = append(v.History, views.MockPoint{Label: views.FormatWhen(old.Started), Percent: t.percent(),
					Current: old.ID == m.ID, Partial: !t.final()})
			}
		}
	}
	return render(c, status, views.MockView(s.pageWithJS(c, "Mock interview", "practice"), v))
}

func (s *Server) mockItemView(i int, it store.MockItem) (views.MockItemView, error) {
	iv := views.MockItemView{N: i + 1, Answer: "no answer", Score: "0%"}
	kind, id, _ := strings.Cut(it.Drill, "/")
	lesson := s.drillLesson(it.Drill)
	if les, ok := s.cfg.Lessons.Get(lesson); ok {
		iv.Area = les.Title
	}
	if it.Attempt != nil {
		iv.Answer = truncateRunes(it.Attempt.Answer, 300)
		iv.Score = scoreText(it.Attempt.Score, it.Attempt.Scored)
	}
	switch kind {
	case "estimate":
		t, ok := practice.LookupTemplate(id)
		if !ok {
			return iv, fmt.Errorf("mock item %d: no template %s", i, id)
		}
		prob, err := t.Draw(it.Seed)
		if err != nil {
			return iv, err
		}
		iv.Kind, iv.Question, iv.Example = "estimate", prob.Question, t.Unit.Example
		if it.Attempt != nil {
			iv.Answer = truncateRunes(estimateAnswerText(t, *it.Attempt), 300)
		}
		iv.Given = givenLine(prob)
		iv.Correct = "the engine's figure: " + t.Format(prob.Answer) + " (worked solution)"
		iv.Href = fmt.Sprintf("/practice/estimate/%s?seed=%d#result", id, it.Seed)
	default:
		q, ok := s.openQuestion(id)
		if !ok {
			return iv, fmt.Errorf("mock item %d: no open question %s", i, id)
		}
		iv.Kind, iv.Question = "open", q.Question
		iv.Correct, iv.Href = "model answer", "/practice/open/"+id
		if it.Attempt != nil {
			iv.Href = fmt.Sprintf("/practice/open/%s?attempt=%d#compare", id, it.Attempt.ID)
			if !it.Attempt.Scored {
				iv.Score, iv.Correct = "not ticked yet", "compare with the model answer and tick the rubric"
			}
		}
	}
	return iv, nil
}
