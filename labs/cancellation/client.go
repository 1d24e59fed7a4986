package cancellation

import (
	"strings"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// client plays the browser for turn 1: it reads the streamed deltas, and
// after stopAfter tokens it goes away by cancelling the request's context,
// as a closed tab ends the server's request context.
type client struct {
	stopAfter  int
	disconnect func()
	poke       chan<- struct{}

	mu        sync.Mutex
	text      strings.Builder
	delivered int
	pts       []labs.Point // tokens delivered over time (ms)
	firstAt   time.Duration
	stopped   bool
	stopAt    time.Duration
	errShown  string // the error event's message, as the reader saw it
	errAt     time.Duration
	errStatus string
}

// on handles one pipeline event; the pipeline never calls it concurrently.
func (c *client) on(ev pipeline.Event) {
	c.mu.Lock()
	switch ev.Kind {
	case pipeline.EventDelta:
		if c.stopped {
			break // nobody is reading any more
		}
		if c.delivered == 0 {
			c.firstAt = ev.At
			c.pts = append(c.pts, labs.Point{X: labs.Millis(ev.At), Y: 0})
		}
		c.text.WriteString(ev.Text)
		c.delivered += ev.Tokens
		c.pts = append(c.pts, labs.Point{X: labs.Millis(ev.At), Y: float64(c.delivered)})
		if c.stopAfter > 0 && c.delivered >= c.stopAfter {
			c.stopped, c.stopAt = true, ev.At
			c.disconnect()
		}
	case pipeline.EventError:
		c.errStatus = ev.Status
		if !c.stopped { // a reader who left sees nothing more
			c.errShown, c.errAt = ev.Err, ev.At
		}
	}
	c.mu.Unlock()
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// view is a copy of what the client has seen so far.
type clientView struct {
	text      string
	delivered int
	pts       []labs.Point
	firstAt   time.Duration
	stopped   bool
	stopAt    time.Duration
	errShown  string
	errAt     time.Duration
	errStatus string
}

func (c *client) view() clientView {
	c.mu.Lock()
	defer c.mu.Unlock()
	return clientView{text: c.text.String(), delivered: c.delivered, pts: append([]labs.Point(nil), c.pts...),
		firstAt: c.firstAt, stopped: c.stopped, stopAt: c.stopAt, errShown: c.errShown, errAt: c.errAt,
		errStatus: c.errStatus}
}
