package practice

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Verdict is a grading model's opinion on one rubric point: whether the
// answer covered it, and the sentence of the answer that earned it.
type Verdict struct {
	Point   int    `json:"point"`
	Covered bool   `json:"covered"`
	Quote   string `json:"quote,omitempty"`
	// Dropped is the quote the model gave that is not in the answer: a
	// grader that invents evidence must not look as if it found some.
	Dropped string `json:"dropped,omitempty"`
}

// Grading is a model's verdicts on every rubric point of one answer.
type Grading struct {
	Verdicts []Verdict `json:"verdicts"`
}

// Covered counts the points the model judged covered.
func (g Grading) Covered() int {
	n := 0
	for _, v := range g.Verdicts {
		if v.Covered {
			n++
		}
	}
	return n
}

// ErrUnreadableGrading is a model reply that is not the JSON asked for.
var ErrUnreadableGrading = errors.New("the grader's reply could not be read")

// GradingInstructions is the system message: the model is asked for JSON
// only, so the reply can be checked point by point rather than trusted.
const GradingInstructions = `You grade an interview answer against a rubric. For every rubric point decide whether the answer covers it. ` +
	`Reply with JSON only, in this shape: {"verdicts":[{"point":0,"covered":true,"quote":"the one sentence of the answer that covers it, copied exactly"}]}. ` +
	`Give one verdict per rubric point, numbered from 0. When a point is not covered, set covered to false and quote to "".`

// GradingRequest is the user message: the question, the numbered rubric
// and the learner's answer.
func GradingRequest(question string, rubric []string, answer string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nRubric:\n", question)
	for i, r := range rubric {
		fmt.Fprintf(&b, "%d. %s\n", i, r)
	}
	fmt.Fprintf(&b, "\nAnswer:\n%s\n", answer)
	return b.String()
}

// ParseGrading reads a model's reply defensively: it takes the outermost
// JSON object (models wrap JSON in prose or code fences), keeps one verdict
// per rubric point (a point the model skipped counts as not covered), and
// keeps a quote only if it is a sentence found in the answer; a quote that
// is not there moves to Dropped and cannot earn the point.
func ParseGrading(reply string, rubricLen int, answer string) (Grading, error) {
	start, end := strings.Index(reply, "{"), strings.LastIndex(reply, "}")
	if start < 0 || end < start {
		return Grading{}, ErrUnreadableGrading
	}
	var raw struct {
		Verdicts []struct {
			Point   *int   `json:"point"`
			Covered bool   `json:"covered"`
			Quote   string `json:"quote"`
		} `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(reply[start:end+1]), &raw); err != nil || raw.Verdicts == nil {
		return Grading{}, ErrUnreadableGrading
	}
	g := Grading{Verdicts: make([]Verdict, rubricLen)}
	for i := range g.Verdicts {
		g.Verdicts[i].Point = i
	}
	seen := make([]bool, rubricLen)
	for i, v := range raw.Verdicts {
		p := i
		if v.Point != nil {
			p = *v.Point
		}
		if p < 0 || p >= rubricLen || seen[p] {
			continue
		}
		seen[p] = true
		quote := strings.TrimSpace(v.Quote)
		switch {
		case !v.Covered:
		case quote != "" && quoteInAnswer(quote, answer):
			g.Verdicts[p] = Verdict{Point: p, Covered: true, Quote: quote}
		default:
			g.Verdicts[p] = Verdict{Point: p, Dropped: quote}
		}
	}
	return g, nil
}

// quoteInAnswer says whether quote appears in answer, ignoring case, runs
// of white space and the end punctuation models like to add or drop. Very
// short quotes do not count: "the" is in every answer.
func quoteInAnswer(quote, answer string) bool {
	q := squash(strings.TrimRight(quote, ".!?…\"' "))
	return len([]rune(q)) >= 8 && strings.Contains(squash(answer), q)
}

func squash(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
}
