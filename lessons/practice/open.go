package practice

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/latencylab/latencylab/labs"
)

// FollowUp is an interviewer's pushback after a lesson's main question,
// with what a strong answer covers and one such answer.
type FollowUp struct {
	ID       string
	Lesson   string
	Question string
	Rubric   []string
	Answer   []string // paragraphs
}

// MinWords is how long an open answer must be before the model answer is
// shown: long enough to be a real attempt.
const MinWords = 40

// TooShort is the one rule, on the lesson page and in practice alike,
// for revealing a model answer: "" when answer is a real attempt, else
// what the learner must add.
func TooShort(answer string) string {
	n := CountWords(answer)
	if n >= MinWords {
		return ""
	}
	return fmt.Sprintf("Your answer has %s; write at least %d more before the model answer is shown.", labs.Count(n, "word"), MinWords-n)
}

// CountWords counts the words of an answer (runs of letters or digits).
func CountWords(s string) int {
	return len(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '\'' && r != '’' }))
}

// RubricScore is the share of a rubric's points that were ticked; ticks
// outside the rubric and repeats do not count.
func RubricScore(ticks []int, points int) float64 {
	if points <= 0 {
		return 0
	}
	seen := map[int]bool{}
	for _, t := range ticks {
		if t >= 0 && t < points {
			seen[t] = true
		}
	}
	return float64(len(seen)) / float64(points)
}

// FollowUps lists every follow-up question in lesson order.
func FollowUps() []FollowUp {
	return append(append([]FollowUp(nil), followUpsA...), followUpsB...)
}
