package practice

import (
	"strings"
	"testing"
)

func TestFollowUpsCoverEveryLessonTwice(t *testing.T) {
	perLesson := map[string]int{}
	ids := map[string]bool{}
	for _, f := range FollowUps() {
		if ids[f.ID] {
			t.Errorf("duplicate follow-up id %s", f.ID)
		}
		ids[f.ID] = true
		perLesson[f.Lesson]++
		if !strings.HasSuffix(f.Question, "?") || len(f.Rubric) < 3 || CountWords(strings.Join(f.Answer, " ")) < MinWords {
			t.Errorf("%s: needs a question, at least 3 rubric points and a model answer of %d words", f.ID, MinWords)
		}
	}
	if len(perLesson) != 10 {
		t.Errorf("follow-ups cover %d lessons, want 10", len(perLesson))
	}
	for l, n := range perLesson {
		if n < 2 {
			t.Errorf("%s has %d follow-ups, want at least 2", l, n)
		}
	}
}

func TestCountWordsAndRubricScore(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"", 0}, {"  x ", 1}, {"prefill is compute-bound; decode isn't", 6}, {"3,200 tokens at 10 ms", 6}, {"— … !!", 0}} {
		if got := CountWords(c.in); got != c.want {
			t.Errorf("CountWords(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		ticks  []int
		points int
		want   float64
	}{{nil, 4, 0}, {[]int{0, 2}, 4, 0.5}, {[]int{0, 0, 1, 9, -1}, 4, 0.5}, {[]int{0, 1, 2, 3}, 4, 1}, {[]int{0}, 0, 0}} {
		if got := RubricScore(c.ticks, c.points); got != c.want {
			t.Errorf("RubricScore(%v, %d) = %g, want %g", c.ticks, c.points, got, c.want)
		}
	}
}

func TestTooShort(t *testing.T) {
	tests := []struct {
		answer, want string
	}{
		{"", "Your answer has 0 words; write at least 40 more before the model answer is shown."},
		{"short", "Your answer has 1 word; write at least 39 more before the model answer is shown."},
		{"short answer", "Your answer has 2 words; write at least 38 more before the model answer is shown."},
		{strings.Repeat("word ", 39), "Your answer has 39 words; write at least 1 more before the model answer is shown."},
		{strings.Repeat("word ", 40), ""},
	}
	for _, tt := range tests {
		if got := TooShort(tt.answer); got != tt.want {
			t.Errorf("TooShort(%d words) = %q, want %q", CountWords(tt.answer), got, tt.want)
		}
	}
}
