package moderation

import (
	"fmt"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// delivery is what the engine side of one job says about the host and the
// GPU: how late its tokens reached the handler, and who shared its
// batches. The generator goroutine writes it, possibly after the stage has
// returned (an aborted request), so it has its own lock.
type delivery struct {
	mu      sync.Mutex
	lag     labs.Delivery
	sharing live.Sharing
	// firstGPU and endGPU are the first token's and the final event's
	// modelled times since arrival.
	firstGPU, endGPU time.Duration
	tokens           int
	finished         bool // the final event came, so sharing is complete
}

// observe records what the engine says of the request: the first
// token's and the final event's modelled times, and who shared the GPU.
func (d *delivery) observe(ev live.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case ev.Done:
		d.sharing, d.endGPU, d.finished = ev.Sharing, ev.GPU, true
	case d.tokens == 0:
		d.firstGPU = ev.GPU
		fallthrough
	default:
		d.tokens++
	}
}

// lateNames names, for the busy note, the moments of a moderated stream
// that can run late on a busy host; a token's is the default wording.
var lateNames = map[mod.EventKind]string{
	mod.EvPromptChecked: "the prompt check",
	mod.EvChecked:       "a moderation check",
	mod.EvDelivered:     "checked text on its way to you",
}

// late records how far behind its modelled time the handler saw ev
// (handler is since the run began).
func (d *delivery) late(ev mod.Event, handler time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lag.ObserveOf(lateNames[ev.Kind], ev.Model, handler)
}

// singleNotes are the sentences a single-policy run's final status ends
// with: a busy host, other requests on the GPU (what they cost against
// the same request alone).
func singleNotes(j *job, cfg engine.Config) []string {
	d := &j.delivery
	d.mu.Lock()
	defer d.mu.Unlock()
	notes := []string{d.lag.BusyNote(), thinkingNote(j)}
	if !d.finished {
		return notes // cancelled by the policy: its batches were not all seen
	}
	if ttft, e2e, ok := labs.Alone(cfg, j.engineRequest()); ok {
		notes = append(notes, labs.SharingNote(d.sharing, d.firstGPU-ttft, d.endGPU-e2e))
	}
	return notes
}

// compareNotes are the notes of a comparison: a busy host (the worst of
// its requests), and other learners' requests on the GPU. The policies'
// own requests batch with each other by design, so they are not counted;
// what others cost is not given, as no request of a comparison runs alone.
func compareNotes(jobs []*job) []string {
	var lag labs.Delivery
	others := 0
	for _, j := range jobs {
		d := &j.delivery
		d.mu.Lock()
		lag.Merge(d.lag)
		if d.finished {
			others = max(others, d.sharing.Others-(len(jobs)-1))
		}
		d.mu.Unlock()
	}
	return []string{lag.BusyNote(), labs.OthersNote(others), thinkingNote(jobs[0])}
}

// thinkingNote says, for a reasoning model on a server, that the lab's
// figures start at the answer: the thinking before it is neither checked
// nor shown, so the "model first token" and the tokens generated are the
// answer's. It is "" when the model did not think. Read it after the
// job's stage has returned.
func thinkingNote(j *job) string {
	if j.text == nil || j.text.Thought == 0 {
		return ""
	}
	if len(j.meter.genAt) == 0 { // every token was thinking
		return labs.ThinkingNote(j.text.Thought, j.text.Thought, false)
	}
	return fmt.Sprintf("The model thought for %s before its answer. Moderation reads only the answer, so the thinking is neither checked nor shown, "+
		"and this lab's model first token and tokens generated are the answer's.", labs.Count(j.text.Thought, "token"))
}
