package web

import (
	"testing"

	"github.com/latencylab/latencylab/web/views"
)

// TestMockTally: a scorecard never passes off a figure over part of the
// mock as the result. Unticked open answers make it "so far", with what it
// covers; a blank answer is marked (0%) and leaves nothing to tick.
func TestMockTally(t *testing.T) {
	est := func(score float64) mockScore { return mockScore{score: score, marked: true} }
	unticked := mockScore{}
	tests := []struct {
		name        string
		scores      []mockScore
		wantOverall views.MockOverall
		wantArea    string
		wantPending bool
	}{
		{"all marked", []mockScore{est(1), est(0.5), est(0)},
			views.MockOverall{Label: "Overall", Score: "50%"}, "50%", false},
		{"blank answers count as marked zeros", []mockScore{est(1), est(0), est(0), est(0)},
			views.MockOverall{Label: "Overall", Score: "25%"}, "25%", false},
		{"QA's mock: 5 of 8 marked", []mockScore{est(1), est(1), est(1), est(1), est(0), unticked, unticked, unticked},
			views.MockOverall{Label: "So far", Score: "80%", Partial: true,
				Note: "on the 5 of 8 questions marked; tick the rubric on 3 open answers to finish."},
			"pending: 5 of 8 marked, 3 open answers to tick", true},
		{"one left to tick", []mockScore{est(1), unticked},
			views.MockOverall{Label: "So far", Score: "100%", Partial: true,
				Note: "on the 1 of 2 questions marked; tick the rubric on 1 open answer to finish."},
			"pending: 1 of 2 marked, 1 open answer to tick", true},
		{"nothing marked", []mockScore{unticked, unticked},
			views.MockOverall{Label: "Overall", Score: "not scored yet", Note: "tick the rubric on 2 open answers to see a score."},
			"pending: 0 of 2 marked, 2 open answers to tick", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tally := tallyMock(tt.scores)
			if got := tally.overall(); got != tt.wantOverall {
				t.Errorf("overall = %+v, want %+v", got, tt.wantOverall)
			}
			area, pending := tally.area()
			if area != tt.wantArea || pending != tt.wantPending {
				t.Errorf("area = %q (pending %v), want %q (pending %v)", area, pending, tt.wantArea, tt.wantPending)
			}
		})
	}
}
