package moderation

import (
	"testing"
	"time"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// onPool is the lab on a given pool, for RunBusy.
var onPool = labtest.OnPool(New, "test")

// TestNotes: the final status says the server was busy only when the
// handler was starved, and that other requests shared the GPU only when
// they did, with their number; a comparison does not count its own
// policies' requests.
func TestNotes(t *testing.T) {
	clean := labs.Values{knobScenario: scenarioClean, knobPolicy: string(mod.BufferedWindow)}
	tests := []struct {
		name        string
		changes     labs.Values
		consume     time.Duration
		others      int
		wantBusy    bool
		wantSharing string
	}{
		{"calm and alone", clean, 0, 0, false, ""},
		{"starved handler", clean, 40 * time.Millisecond, 0, true, ""},
		{"two other learners", clean, 0, 2, false, "2 other requests " + labtest.SharedNote + " (up to 2 of them in one batch with it)"},
		{"comparison alone", labs.Values{knobScenario: scenarioClean, knobPolicy: policyCompare}, 0, 0, false, ""},
		{"comparison beside one other", labs.Values{knobScenario: scenarioClean, knobPolicy: policyCompare}, 0, 1,
			false, "1 other request shared the GPU with this run."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vals := labtest.Values(tc.changes)
			s, err := parse(t, vals)
			if err != nil {
				t.Fatal(err)
			}
			final := labtest.RunBeside(t, onPool, vals, s.profile, tc.others, tc.consume)
			t.Log(final.Status)
			if got := labtest.HasNote(final, labtest.BusyNote); got != tc.wantBusy {
				t.Errorf("busy note %v, want %v: %q", got, tc.wantBusy, final.Status)
			}
			shared := labtest.HasNote(final, labtest.SharedNote) || labtest.HasNote(final, "shared the GPU")
			if tc.wantSharing == "" && shared {
				t.Errorf("status mentions sharing: %q", final.Status)
			}
			if tc.wantSharing != "" && !labtest.HasNote(final, tc.wantSharing) {
				t.Errorf("status %q, want %q", final.Status, tc.wantSharing)
			}
		})
	}
}
