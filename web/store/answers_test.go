package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// An answer is saved with its question, rewritten in place as it grows, and
// closed with how it ended: the conversation keeps two rows.
func TestStartAndUpdateAnswer(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	conv, err := s.CreateConversation(ctx, "learner-a")
	if err != nil {
		t.Fatal(err)
	}
	q := pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: "How long do refunds take?", At: t0}
	id, err := s.StartAnswer(ctx, q, pipeline.SavedMessage{Role: "assistant", Status: pipeline.StatusStreaming, At: t0})
	if err != nil {
		t.Fatalf("StartAnswer: %v", err)
	}
	steps := []pipeline.SavedMessage{
		{Content: "Usually", Status: pipeline.StatusStreaming, OutputTokens: 1, Tier: "small"},
		{Content: "Usually 7 to 14", Status: pipeline.StatusStreaming, OutputTokens: 4, Tier: "small"},
		{Content: "Usually 7 to 14 business days.", Status: pipeline.StatusComplete, PromptTokens: 410, OutputTokens: 7, Tier: "small"},
	}
	for i, step := range steps {
		if err := s.UpdateAnswer(ctx, id, step); err != nil {
			t.Fatalf("UpdateAnswer %d: %v", i, err)
		}
		msgs, err := s.ListMessages(ctx, "learner-a", conv)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != 2 || msgs[0].Content != q.Content || msgs[0].Role != "user" {
			t.Fatalf("after step %d: %+v, want the question and one answer", i, msgs)
		}
		a := msgs[1]
		if pipeline.AnswerID(a.ID) != id || a.Role != "assistant" || a.Content != step.Content || a.Status != step.Status ||
			a.PromptTokens != step.PromptTokens || a.OutputTokens != step.OutputTokens || a.Tier != step.Tier || !a.At.Equal(t0) {
			t.Errorf("after step %d the answer is %+v, want %+v (id %d, time %v)", i, a, step, id, t0)
		}
	}
}

func TestStartAndUpdateAnswerBadInput(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	conv, err := s.CreateConversation(ctx, "learner-a")
	if err != nil {
		t.Fatal(err)
	}
	user := pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: "q"}
	streaming := pipeline.SavedMessage{Role: "assistant", Status: pipeline.StatusStreaming}
	for _, tc := range []struct {
		name    string
		q, a    pipeline.SavedMessage
		wantErr error
	}{
		{"unknown conversation", pipeline.SavedMessage{ConversationID: "nope", Role: "user", Content: "q"}, streaming, ErrConversationNotFound},
		{"roles swapped", pipeline.SavedMessage{ConversationID: conv, Role: "assistant"}, pipeline.SavedMessage{Role: "user"}, ErrInvalid},
		{"bad status", user, pipeline.SavedMessage{Role: "assistant", Status: "exploded"}, ErrInvalid},
		{"two conversations", user, pipeline.SavedMessage{ConversationID: "other", Role: "assistant"}, ErrInvalid},
		{"oversize answer", user, pipeline.SavedMessage{Role: "assistant", Content: strings.Repeat("x", MaxMessageBytes+1)}, ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.StartAnswer(ctx, tc.q, tc.a)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("StartAnswer: %v, want %v", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "pipeline.") {
				t.Errorf("error %q names a Go type", err)
			}
		})
	}
	// Nothing of a refused turn was kept, the question included.
	if msgs, err := s.ListMessages(ctx, "learner-a", conv); err != nil || len(msgs) != 0 {
		t.Fatalf("messages after refused turns: %+v, %v", msgs, err)
	}

	id, err := s.StartAnswer(ctx, user, streaming)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		id      pipeline.AnswerID
		a       pipeline.SavedMessage
		wantErr error
	}{
		{"the question's id", id - 1, pipeline.SavedMessage{Content: "x"}, ErrConversationNotFound},
		{"no such answer", id + 100, pipeline.SavedMessage{Content: "x"}, ErrConversationNotFound},
		{"bad status", id, pipeline.SavedMessage{Status: "exploded"}, ErrInvalid},
		{"negative tokens", id, pipeline.SavedMessage{OutputTokens: -1}, ErrInvalid},
	} {
		t.Run("update "+tc.name, func(t *testing.T) {
			if err := s.UpdateAnswer(ctx, tc.id, tc.a); !errors.Is(err, tc.wantErr) {
				t.Fatalf("UpdateAnswer: %v, want %v", err, tc.wantErr)
			}
		})
	}
	msgs, _ := s.ListMessages(ctx, "learner-a", conv)
	if len(msgs) != 2 || msgs[0].Content != "q" || msgs[1].Content != "" || msgs[1].Status != pipeline.StatusStreaming {
		t.Errorf("refused updates changed the turn: %+v", msgs)
	}
}

// Answers left "streaming" when the process died are marked interrupted
// when the file is opened again, partial text kept; finished answers and
// questions are untouched.
func TestOpenMarksStreamingAnswersInterrupted(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	conv, err := s.CreateConversation(ctx, "learner-a")
	if err != nil {
		t.Fatal(err)
	}
	type turn struct {
		question, answer, status string
	}
	turns := []turn{
		{"first?", "A finished answer.", pipeline.StatusComplete},
		{"second?", "Half an ans", pipeline.StatusStreaming},
		{"third?", "Stopped by the learner", pipeline.StatusCancelled},
		{"fourth?", "", pipeline.StatusStreaming},
	}
	for _, tr := range turns {
		id, err := s.StartAnswer(ctx, pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: tr.question},
			pipeline.SavedMessage{Role: "assistant", Status: pipeline.StatusStreaming})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateAnswer(ctx, id, pipeline.SavedMessage{Content: tr.answer, Status: tr.status}); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.InterruptedOnOpen(); n != 0 {
		t.Errorf("a fresh file had %d interrupted answers", n)
	}
	// Reopen without closing first, as a restart after kill -9 finds the
	// file (the WAL not checkpointed).
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if n := s2.InterruptedOnOpen(); n != 2 {
		t.Errorf("marked %d answers interrupted, want 2", n)
	}
	msgs, err := s2.ListMessages(ctx, "learner-a", conv)
	if err != nil || len(msgs) != 2*len(turns) {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	for i, tr := range turns {
		q, a := msgs[2*i], msgs[2*i+1]
		want := tr.status
		if want == pipeline.StatusStreaming {
			want = pipeline.StatusInterrupted
		}
		if q.Content != tr.question || q.Status != pipeline.StatusComplete || a.Content != tr.answer || a.Status != want {
			t.Errorf("turn %d: %q (%s) / %q (%s), want %q / %q (%s)", i, q.Content, q.Status, a.Content, a.Status, tr.question, tr.answer, want)
		}
	}
	turnsSeen, err := s2.RecentTurns(ctx, conv, 2)
	if err != nil || len(turnsSeen) != 2 || turnsSeen[1].Status != pipeline.StatusInterrupted {
		t.Errorf("next prompt's history %+v, %v: want the interrupted answer", turnsSeen, err)
	}
}
