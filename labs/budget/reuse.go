package budget

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// modelTime is the one live request's model calls, the part of it a
// server answers: from the answer call's start to its first word (the
// summary call it waited for included, in sequence), the rest of the
// answer, and the summary call alone.
type modelTime struct {
	firstWord, writing, second time.Duration
}

// errNoAnswerWord is a live request whose model wrote only thinking: it
// has no first word for the batch to reuse.
var errNoAnswerWord = errors.New("the one request brought no answer word")

// liveModelTime reads the model's part of the live request res, and of
// its second call when there is one.
func liveModelTime(res *pipeline.Result, second *secondCall) (modelTime, error) {
	for _, a := range res.Attempts {
		if a.FirstToken == 0 {
			continue // a failed attempt: the one that answered comes later
		}
		if res.Summary.FirstWord <= a.Start {
			return modelTime{}, errNoAnswerWord
		}
		m := modelTime{firstWord: res.Summary.FirstWord - a.Start, writing: res.Summary.Total - res.Summary.FirstWord}
		if second != nil {
			start, end, _ := second.span()
			m.second = end - start
		}
		return m, nil
	}
	return modelTime{}, fmt.Errorf("the one request has no model call that answered")
}

// withModelTime is b with every request's model calls taking m: its stage
// times stay as drawn, the model's time is the one request's. A run that
// sets a server beside the bundled engine modelling it (labs.Compared)
// builds its batch so: the server is asked once, so a batch timed on the
// bundled engine's virtual clock would show the bundled engine's model in
// the server's column, while this one holds what the server measured.
func (b batch) withModelTime(m modelTime) batch {
	out := batch{samples: make([]sample, len(b.samples))}
	for i, sm := range b.samples {
		sm.ttft, sm.decode = m.firstWord, m.writing
		if sm.second != 0 {
			sm.second = m.second
		}
		sm.firstWord = sm.pre + sm.ttft
		sm.complete = sm.firstWord + sm.decode
		out.samples[i] = sm
	}
	return out
}

// reuseNote says where a reused batch's model time came from: the server's
// measurement or the bundled engine's model of it.
func reuseNote(ctx context.Context, m modelTime, n int, rate float64) string {
	from := "the bundled engine"
	if labs.OnServer(ctx) {
		from = "that server"
	}
	return fmt.Sprintf("The %s requests reuse this request's model time from %s (first word %s after the call, %s writing), so how it would queue at %s requests a second is not in them.",
		labs.Thousands(n), from, pipelinelab.FmtMS(pipelinelab.MS(m.firstWord)), pipelinelab.FmtMS(pipelinelab.MS(m.writing)), labs.Number(rate))
}
