package views

import (
	"strconv"
	"time"
)

// PracticeIndex is the /practice page: every drill grouped by lesson.
type PracticeIndex struct {
	Groups   []PracticeGroup
	Total    int
	DueCount int
}

// PracticeGroup is one lesson's drills, by kind.
type PracticeGroup struct {
	LessonTitle, LessonSlug string
	Estimates, Open         []PracticeItem
}

// PracticeItem is one drill in the list with the learner's standing on it.
type PracticeItem struct {
	Href, Title string
	Attempts    int
	LastScore   string // "" when never scored
	Due         string // "due now", "due in 3 days" or ""
}

// EstimatePage is one drawn estimation drill.
type EstimatePage struct {
	ID, Title, LessonTitle, LessonSlug string
	Seed                               uint64
	Question                           string
	Given                              [][2]string
	UnitName, Example                  string
	// Draft and Error keep a refused answer in the box with the reason.
	Draft, Error string
	// Result is set once the learner has answered this draw.
	Result          *EstimateResult
	History         []AttemptRow
	NextSeedHref    string
	LabHref, Preset string
}

// EstimateResult is the grade of the latest answer to a draw and the
// worked solution.
type EstimateResult struct {
	Answer, Correct, Verdict string
	ReadAs                   string // the graded value when it reads unlike Answer ("7,5 ms" → "7.5 ms"), else ""
	ScoreClass               string // "full", "partial", "none"
	Steps                    [][2]string
}

// AttemptRow is one earlier attempt, newest first.
type AttemptRow struct {
	At, Answer, Correct, Score, Href string
}

// FormatWhen writes a time for history rows.
func FormatWhen(t time.Time) string { return t.UTC().Format("2 Jan 15:04") }

func u64toa(n uint64) string { return strconv.FormatUint(n, 10) }

// OpenPage is one open question: the answer box, and after an answer the
// learner's text beside the model answer with the rubric to tick.
type OpenPage struct {
	ID, LessonTitle, LessonSlug, Question string
	Rubric                                []string
	// Draft and Error keep a refused answer in the box with the reason.
	Draft, Error string
	MinWords     int
	GraderModel  string // the grading model's name; "" when there is none
	Attempt      *OpenAttempt
	ModelHTML    string // trusted HTML of the model answer
	History      []AttemptRow
	// Related are the lesson's other open questions: its own drill and the
	// follow-ups an interviewer would push with.
	Related []PracticeItem
}

// OpenAttempt is the attempt shown beside the model answer.
type OpenAttempt struct {
	ID     int64
	Answer string
	Ticked map[int]bool
	Score  string // "" until ticked
	// Grading is a model's opinion of this attempt, nil until asked for.
	Grading *OpenGrading
}

// OpenGrading is a grading model's verdicts on one attempt, or why it
// failed (Problem).
type OpenGrading struct {
	Model, Problem string // Problem: why the latest request failed
	Graded         bool   // verdicts are kept (from this or an earlier request)
	Covered, Total int
	Points         []GradedPoint
}

// GradedPoint is the model's verdict on one rubric point: Quote is the
// learner's sentence that earned it; Dropped a quote not in the answer.
type GradedPoint struct {
	Rubric, Quote, Dropped string
	Covered                bool
}

func i64toa(n int64) string { return strconv.FormatInt(n, 10) }
