package web

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/store"
)

// Starting on a file a crash left with answers mid-stream tells the
// operator how many were marked interrupted; a clean file says nothing.
func TestStartLogsInterruptedAnswers(t *testing.T) {
	for _, tc := range []struct {
		name      string
		streaming int
		want      string
	}{
		{"clean file", 0, ""},
		{"two answers cut off", 2, "answers=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "crashed.db")
			st, err := store.Open(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			conv, err := st.CreateConversation(context.Background(), "learner-a")
			if err != nil {
				t.Fatal(err)
			}
			for range tc.streaming {
				if _, err := st.StartAnswer(context.Background(), pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: "where is my order?"},
					pipeline.SavedMessage{Role: "assistant", Status: pipeline.StatusStreaming}); err != nil {
					t.Fatal(err)
				}
			}
			st.Close()

			var logs bytes.Buffer
			newTestServer(t, func(c *Config) {
				c.DBPath = db
				c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			})
			got := logs.String()
			if tc.want == "" && strings.Contains(got, "interrupted") {
				t.Errorf("a clean start logged %q", got)
			}
			if tc.want != "" && (!strings.Contains(got, "marked interrupted") || !strings.Contains(got, tc.want)) {
				t.Errorf("start logged %q, want a warning with %s", got, tc.want)
			}
		})
	}
}
