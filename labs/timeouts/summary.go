package timeouts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// summary is a finished batch in figures, every one counted from the
// requests' results.
type summary struct {
	n          int
	firstWords []float64 // ms, for requests that showed any text
	completes  []float64 // ms to the last word, for complete answers
	noWords    int       // requests that never showed a word
	complete   int
	// sent counts requests whose call moved to a tier other than the
	// primary; sentDone, sentCut and sentFailed split them by how their
	// answer ended (completed, cut by a limit, failed).
	sent, sentDone, sentCut, sentFailed int
	errors                              int
	timeouts                            int
	cancelled                           int
	healthy                             int // requests the fault did not touch
	healthyCut                          int // of those, answers that did not complete
}

func summarize(rs []record) summary {
	var s summary
	for _, r := range rs {
		if r.res == nil {
			continue
		}
		s.n++
		res := r.res
		if res.Text != "" {
			s.firstWords = append(s.firstWords, labs.Millis(res.Summary.FirstWord))
		} else {
			s.noWords++
		}
		if movedToBackup(res) {
			s.sent++
			switch res.Status {
			case pipeline.StatusComplete:
				s.sentDone++
			case pipeline.StatusTimeout:
				s.sentCut++
			case pipeline.StatusError:
				s.sentFailed++
			}
		}
		switch res.Status {
		case pipeline.StatusComplete:
			s.complete++
			s.completes = append(s.completes, labs.Millis(res.Summary.Total))
		case pipeline.StatusError:
			s.errors++
		case pipeline.StatusTimeout:
			s.timeouts++
		case pipeline.StatusCancelled:
			s.cancelled++
		}
		if !r.slowed {
			s.healthy++
			if res.Status != pipeline.StatusComplete {
				s.healthyCut++
			}
		}
	}
	return s
}

func (s summary) firstWordP95() float64 { return pipelinelab.Percentile(s.firstWords, 95) }
func (s summary) firstWordP99() float64 { return pipelinelab.Percentile(s.firstWords, 99) }
func (s summary) completeP95() float64  { return pipelinelab.Percentile(s.completes, 95) }

// backupShare is the percentage of requests sent to the backup.
func (s summary) backupShare() float64 {
	if s.n == 0 {
		return 0
	}
	return 100 * float64(s.sent) / float64(s.n)
}

// movedToBackup reports whether a call of res went to a tier other than
// the primary: sending is not answering, as the deadline may cut the
// backup off before it completes.
func movedToBackup(res *pipeline.Result) bool {
	for _, a := range res.Attempts {
		if a.Tier != primary {
			return true
		}
	}
	return false
}

// backupOutcome says what became of the requests sent to the backup,
// named by subject: "it completed 4, a time limit cut off 1 and 1
// failed", or "" when none were sent.
func (s summary) backupOutcome(subject string) string {
	if s.sent == 0 {
		return ""
	}
	parts := []string{fmt.Sprintf("%s completed %d", subject, s.sentDone)}
	if s.sentCut > 0 {
		parts = append(parts, fmt.Sprintf("a time limit cut off %d", s.sentCut))
	}
	if s.sentFailed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", s.sentFailed))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// sentNote is the backup card's note: how many went, and what became of
// them, so the card never reads as answers the backup did not finish.
func sentNote(sm summary) string {
	if sm.sent == 0 {
		return fmt.Sprintf("0 of %d requests", sm.n)
	}
	return fmt.Sprintf("%d of %d requests; %s", sm.sent, sm.n, sm.backupOutcome("the backup"))
}

// sentCell is the comparison table's backup cell: how many went, their
// share, and how many the backup completed.
func sentCell(sm summary) string {
	if sm.sent == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s%%), %d completed", sm.sent, strconv.FormatFloat(pipelinelab.Round1(sm.backupShare()), 'f', -1, 64), sm.sentDone)
}
