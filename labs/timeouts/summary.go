package timeouts

import (
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
	backup     int // answered (first token) by a tier other than the primary
	errors     int
	timeouts   int
	cancelled  int
	healthy    int // requests the fault did not touch
	healthyCut int // of those, answers that did not complete
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
		if res.Tier != "" && res.Tier != primary {
			s.backup++
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

// backupShare is the percentage of requests the backup answered.
func (s summary) backupShare() float64 {
	if s.n == 0 {
		return 0
	}
	return 100 * float64(s.backup) / float64(s.n)
}
