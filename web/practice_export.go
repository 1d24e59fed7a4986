package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// maxExportAttempts bounds one export; a learner with more gets the newest.
const maxExportAttempts = 5000

// handlePracticeExport serves GET /practice/export.md: every answer the
// learner gave and its score, newest first, as a Markdown file.
func (s *Server) handlePracticeExport(c echo.Context) error {
	attempts, err := s.store.PracticeAttempts(c.Request().Context(), learnerID(c), "", maxExportAttempts)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# My Latency Lab practice\n\n")
	if len(attempts) == 0 {
		b.WriteString("No answers yet.\n")
	}
	for _, a := range attempts {
		if err := s.writeAttemptMarkdown(c.Request().Context(), &b, a); err != nil {
			return err
		}
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, `attachment; filename="latencylab-practice.md"`)
	return c.Blob(http.StatusOK, "text/markdown; charset=utf-8", []byte(b.String()))
}

func (s *Server) writeAttemptMarkdown(ctx context.Context, b *strings.Builder, a store.PracticeAttempt) error {
	kind, id, _ := strings.Cut(a.Drill, "/")
	switch kind {
	case "estimate":
		t, ok := practice.LookupTemplate(id)
		if !ok {
			return nil
		}
		fmt.Fprintf(b, "## Estimate: %s (seed %d)\n\n*%s* · score %s\n\n", mdLine(t.Title), a.Seed, views.FormatWhen(a.At), scoreText(a.Score, a.Scored))
		if p, err := t.Draw(a.Seed); err == nil {
			fmt.Fprintf(b, "%s\n\n", mdLine(p.Question))
			if len(p.Given) > 0 {
				fmt.Fprintf(b, "Given: %s\n\n", mdLine(givenLine(p)))
			}
		}
		fmt.Fprintf(b, "- My answer: %s\n- The engine's figure: %s\n\n", mdLine(estimateAnswerText(t, a)), t.Format(a.Correct))
	case "open":
		q, ok := s.openQuestion(id)
		if !ok {
			return nil
		}
		fmt.Fprintf(b, "## Open question: %s\n\n*%s* · score %s\n\n", mdLine(q.Question), views.FormatWhen(a.At), scoreText(a.Score, a.Scored))
		for _, line := range strings.Split(a.Answer, "\n") {
			b.WriteString("> " + strings.TrimRight(line, "\r") + "\n")
		}
		b.WriteString("\n")
		ticked := map[int]bool{}
		for _, t := range a.Ticks {
			ticked[t] = true
		}
		for i, r := range q.Rubric {
			mark := " "
			if ticked[i] {
				mark = "x"
			}
			fmt.Fprintf(b, "- [%s] %s\n", mark, mdLine(r))
		}
		b.WriteString("\n")
		g, err := s.openGrading(ctx, a.Learner, a.ID, q.Rubric)
		if err != nil {
			return err
		}
		writeGradingMarkdown(b, g)
	}
	return nil
}

// writeGradingMarkdown adds a model's opinion, labelled as such, under the
// learner's own ticks.
func writeGradingMarkdown(b *strings.Builder, g *views.OpenGrading) {
	if g == nil || !g.Graded {
		return
	}
	fmt.Fprintf(b, "Graded by %s (its opinion, not the score): covered %d of %d points\n\n", mdLine(g.Model), g.Covered, g.Total)
	for _, p := range g.Points {
		verdict := "not covered"
		if p.Covered {
			verdict = "covered"
		}
		fmt.Fprintf(b, "- %s: %s", verdict, mdLine(p.Rubric))
		if p.Quote != "" {
			fmt.Fprintf(b, " (“%s”)", mdLine(p.Quote))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// mdLine keeps a value on one line so it cannot start a heading or list.
func mdLine(s string) string { return strings.Join(strings.Fields(s), " ") }
