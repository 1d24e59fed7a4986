package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// On a server run, the cards a lab works out on the bundled engine say so;
// its measured cards and every card of another lab pass unchanged, and the
// lab's own frame is not changed under it.
func TestMarkUnmeasuredNamesTheBundledCards(t *testing.T) {
	frame := func() labs.Frame {
		return labs.Frame{Stats: []labs.Stat{
			{Key: "tokens_generated", Note: "shown + after the disconnect"},
			{Key: "cost_saved"},
			{Key: "ttft_ms", Note: "first token"},
		}}
	}
	for _, tc := range []struct {
		slug   string
		marked []string
	}{
		{"cancellation", []string{"tokens_generated", "cost_saved"}},
		{"streaming", nil},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			in := frame()
			var got labs.Frame
			if err := markUnmeasured(tc.slug, func(f labs.Frame) error { got = f; return nil })(in); err != nil {
				t.Fatal(err)
			}
			for i, st := range got.Stats {
				marked := strings.HasSuffix(st.Note, unmeasuredNote)
				if want := slices.Contains(tc.marked, st.Key); marked != want {
					t.Errorf("%s note %q: marked %v, want %v", st.Key, st.Note, marked, want)
				}
				if orig := frame().Stats[i].Note; orig != "" && !strings.HasPrefix(st.Note, orig) {
					t.Errorf("%s note %q lost its own %q", st.Key, st.Note, orig)
				}
				if in.Stats[i].Note != frame().Stats[i].Note {
					t.Errorf("the lab's own frame changed: %q", in.Stats[i].Note)
				}
			}
		})
	}
}
