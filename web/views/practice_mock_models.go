package views

import (
	"fmt"
	"strconv"

	"github.com/a-h/templ"
)

// MockPage is a running or finished mock interview.
type MockPage struct {
	ID          int64
	Running     bool
	Paused      bool
	PauseUsed   bool
	SecondsLeft int
	Late        bool
	Error       string
	Items       []MockItemView
	// After the end:
	Areas   []MockArea
	Overall MockOverall
	History []MockPoint
}

// MockItemView is one question of a mock.
type MockItemView struct {
	N        int
	Kind     string // "open" or "estimate"
	Area     string
	Question string
	Given    string // an estimate's drawn parameters
	Example  string
	Draft    string
	Answer   string // after the end
	Correct  string // after the end: the engine's figure, or a link text
	Href     string // after the end: where to see the solution or tick the rubric
	Score    string
}

// MockArea is one lesson's score in a mock; Pending when some of its open
// answers are not ticked yet, so Score says what is left, not a figure.
type MockArea struct {
	Name, Score string
	Pending     bool
}

// MockOverall is a scorecard's headline, "Overall: 63%" or, while open
// answers wait for ticks, "So far: 80%" with a Note saying what it covers.
type MockOverall struct {
	Label, Score, Note string
	Partial            bool
}

// MockPoint is one earlier mock's overall score for the chart.
type MockPoint struct {
	Label   string
	Percent int
	Current bool
	Partial bool // some open answers not ticked yet: drawn hollow
}

func mmss(s int) string {
	if s < 0 {
		s = 0
	}
	return strconv.Itoa(s/60) + ":" + fmt.Sprintf("%02d", s%60)
}

// anyPartial says whether the chart has a hollow bar to explain.
func anyPartial(points []MockPoint) bool {
	for _, p := range points {
		if p.Partial {
			return true
		}
	}
	return false
}

func barFill(current bool) string {
	if current {
		return "#3b5bdb"
	}
	return "#9aa5c4"
}

// barStyle fills a finished mock's bar and draws a mock still waiting for
// ticks hollow and dashed, since its figure covers only part of it.
func barStyle(pt MockPoint) templ.Attributes {
	if pt.Partial {
		return templ.Attributes{"class": "partial", "fill": "none", "stroke": barFill(pt.Current), "stroke-width": "2", "stroke-dasharray": "4 3"}
	}
	return templ.Attributes{"fill": barFill(pt.Current)}
}

// barTitle is a bar's tooltip.
func barTitle(pt MockPoint) string {
	title := pt.Label + ": " + strconv.Itoa(pt.Percent) + "%"
	if pt.Partial {
		title += " so far, open answers still to tick"
	}
	return title
}
