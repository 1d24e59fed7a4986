package web

import (
	"fmt"
	"strconv"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
	"github.com/latencylab/latencylab/web/views"
)

// mockScore is one item's contribution: its lesson and score; marked is
// false for an open answer not yet ticked. A blank answer is marked: it
// scores 0 and there is nothing left to tick.
type mockScore struct {
	lesson string
	score  float64
	marked bool
}

func (s *Server) mockScores(m store.Mock) []mockScore {
	out := make([]mockScore, 0, len(m.Items))
	for _, it := range m.Items {
		ms := mockScore{lesson: s.drillLesson(it.Drill), marked: true}
		if it.Attempt != nil {
			ms.score, ms.marked = it.Attempt.Score, it.Attempt.Scored
		}
		out = append(out, ms)
	}
	return out
}

// mockTally sums a group of items. Until every open answer is ticked its
// percentage covers only the marked items, so it is shown as partial.
type mockTally struct {
	items, marked int
	sum           float64
}

func tallyMock(scores []mockScore) mockTally {
	var t mockTally
	for _, sc := range scores {
		t.items++
		if sc.marked {
			t.marked++
			t.sum += sc.score
		}
	}
	return t
}

// toTick is how many answers still wait for their rubric to be ticked.
func (t mockTally) toTick() int { return t.items - t.marked }

// final says every item is marked, so the percentage is the result.
func (t mockTally) final() bool { return t.toTick() == 0 }

// percent is the average over the marked items (0 when none is).
func (t mockTally) percent() int {
	if t.marked == 0 {
		return 0
	}
	return int(t.sum/float64(t.marked)*100 + 0.5)
}

// overall is the scorecard's headline: the final figure, or the figure so
// far with what it covers and what is left.
func (t mockTally) overall() views.MockOverall {
	tick := "tick the rubric on " + labs.Count(t.toTick(), "open answer")
	switch {
	case t.final():
		return views.MockOverall{Label: "Overall", Score: strconv.Itoa(t.percent()) + "%"}
	case t.marked == 0:
		return views.MockOverall{Label: "Overall", Score: "not scored yet", Note: tick + " to see a score."}
	}
	return views.MockOverall{Label: "So far", Score: strconv.Itoa(t.percent()) + "%", Partial: true,
		Note: fmt.Sprintf("on the %d of %d questions marked; %s to finish.", t.marked, t.items, tick)}
}

// area is one lesson's cell: its percentage once all its items are
// marked; until then only what is left, since a figure over part of an
// area (often one estimate) would read as the area's score.
func (t mockTally) area() (string, bool) {
	if t.final() {
		return strconv.Itoa(t.percent()) + "%", false
	}
	return fmt.Sprintf("pending: %d of %d marked, %s to tick", t.marked, t.items, labs.Count(t.toTick(), "open answer")), true
}

// mockScorecard tallies the mock per lesson, in lesson order, and overall.
func (s *Server) mockScorecard(m store.Mock) ([]views.MockArea, views.MockOverall) {
	scores := s.mockScores(m)
	var areas []views.MockArea
	for _, les := range s.cfg.Lessons.All() {
		var mine []mockScore
		for _, sc := range scores {
			if sc.lesson == les.Slug {
				mine = append(mine, sc)
			}
		}
		if len(mine) == 0 {
			continue
		}
		score, pending := tallyMock(mine).area()
		areas = append(areas, views.MockArea{Name: les.Title, Score: score, Pending: pending})
	}
	return areas, tallyMock(scores).overall()
}
