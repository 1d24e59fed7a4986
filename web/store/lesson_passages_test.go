package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/lessons"
)

// The prefill lesson sends the learner to the retrieval lab saying how
// long its help-centre passages are. That is this knowledge base's
// passages as the prompt holds them (number, title and text, as the lab's
// table and its Passages explanation count them), for the lab's questions
// at top-k 5 and 20.
func TestLessonQuotesThePassageSize(t *testing.T) {
	s, _ := openSeeded(t)
	var tokens, n int
	for _, q := range pipelinelab.Questions {
		for _, k := range []int{5, 20} {
			chunks, err := s.Retrieve(context.Background(), q.Label, k)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range chunks {
				tokens += textmodel.Count(fmt.Sprintf("\n[%d] %s\n%s", i+1, c.Article, strings.TrimSpace(c.Text)))
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no passages retrieved")
	}
	mean := float64(tokens) / float64(n)
	want := fmt.Sprintf("about %d tokens each", int(mean/5+0.5)*5)
	t.Logf("%d passages, %.1f tokens each in the prompt", n, mean)
	l, ok := lessons.Get("prefill-vs-decode")
	if !ok || !strings.Contains(l.HTML, want) {
		t.Errorf("the prefill lesson should say the retrieval lab's passages are %q (measured %.1f)", want, mean)
	}
}
