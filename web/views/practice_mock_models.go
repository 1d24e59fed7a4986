package views

import (
	"fmt"
	"strconv"
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
	Overall string
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

// MockArea is one lesson's score in a mock.
type MockArea struct{ Name, Score string }

// MockPoint is one earlier mock's overall score for the chart.
type MockPoint struct {
	Label   string
	Percent int
	Current bool
}

func mmss(s int) string {
	if s < 0 {
		s = 0
	}
	return strconv.Itoa(s/60) + ":" + fmt.Sprintf("%02d", s%60)
}

func barFill(current bool) string {
	if current {
		return "#3b5bdb"
	}
	return "#9aa5c4"
}
