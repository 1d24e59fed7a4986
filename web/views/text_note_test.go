package views

import (
	"context"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// A text panel's note (a server run's "the words are the lab's") shows
// under its title, escaped; a panel without one draws no empty line.
func TestTextPanelNote(t *testing.T) {
	for _, tc := range []struct {
		name, note, want string
	}{
		{"server run", "The words are the lab's own <stand-in>.", `<p class="muted text-note">The words are the lab&#39;s own &lt;stand-in&gt;.</p>`},
		{"bundled engine", "", ""},
	} {
		var b strings.Builder
		if err := Text("lab", &labs.TextPanel{Title: "What the reader sees", Note: tc.note, Body: "Hi"}).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		if got := strings.Contains(html, "text-note"); got != (tc.want != "") || !strings.Contains(html, tc.want) {
			t.Errorf("%s: want %q in\n%s", tc.name, tc.want, html)
		}
	}
}
