package web

import (
	"context"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// An answer a crash cut off (saved "streaming", marked "interrupted" when
// the store opened again) shows in the history with its partial text and a
// note saying why it stops there; one with no text says so too.
func TestChatHistoryShowsInterruptedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, text, wantNote string
	}{
		{"partial", "Refunds usually take 5 to", "Cut off: the server stopped while this answer was streaming."},
		{"empty", "", "No answer: the server stopped before the first word."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ts := newChatServer(t, nil, nil)
			c := client(t)
			conv := newConversation(t, c, ts.URL)
			ctx := context.Background()
			id, err := s.store.StartAnswer(ctx, pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: "How long do refunds take?"},
				pipeline.SavedMessage{Role: "assistant", Status: pipeline.StatusStreaming})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.store.UpdateAnswer(ctx, id, pipeline.SavedMessage{Content: tc.text, Status: pipeline.StatusInterrupted}); err != nil {
				t.Fatal(err)
			}
			_, page := get(t, c, ts.URL+"/chat/"+conv)
			if !strings.Contains(page, `data-status="interrupted"`) || !strings.Contains(page, tc.wantNote) {
				t.Errorf("the page does not mark the answer interrupted with %q", tc.wantNote)
			}
			if tc.text != "" && !strings.Contains(page, tc.text) {
				t.Errorf("the page lost the partial text %q", tc.text)
			}
		})
	}
}
