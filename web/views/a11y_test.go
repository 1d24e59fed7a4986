package views

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// Live regions are busy while their content streams, so a screen reader
// announces the end of a run or an answer, not each frame.
func TestLiveRegionsBusyOnlyWhileStreaming(t *testing.T) {
	for _, c := range []struct {
		name string
		c    templ.Component
		busy bool
	}{
		{"running status", Status("lab-x", "Running…", "running"), true},
		{"finished status", Status("lab-x", "Done.", "done"), false},
		{"idle status", Status("lab-x", "Press Run.", "idle"), false},
		{"streaming answer", ChatLive([]ChatMessage{{Role: "user", Status: "complete"}, {Role: "assistant", Status: "streaming"}}), true},
		{"finished answer", ChatLive([]ChatMessage{{Role: "user", Status: "complete"}, {Role: "assistant", Status: "complete", Text: "Ten days."}}), false},
		{"no turn yet", ChatLive(nil), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.c.Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			if !strings.Contains(html, `aria-live="polite"`) {
				t.Errorf("not a polite live region: %s", html)
			}
			if got := strings.Contains(html, `aria-busy="true"`); got != c.busy {
				t.Errorf("aria-busy present = %v, want %v: %s", got, c.busy, html)
			}
		})
	}
}

func TestRegionName(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, owner, title, want string
	}{
		{"title", "", "What the user saw", "What the user saw"},
		{"fallback", "", "", "Answer text"},
		{"owned", "run #2", "What the user saw", "run #2: What the user saw"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			var comp templ.Component = templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
				_, err := io.WriteString(w, regionName(ctx, c.title, "Answer text"))
				return err
			})
			if c.owner != "" {
				comp = withRegionOwner(c.owner, comp)
			}
			if err := comp.Render(ctx, &b); err != nil {
				t.Fatal(err)
			}
			if b.String() != c.want {
				t.Errorf("region name %q, want %q", b.String(), c.want)
			}
		})
	}
}
