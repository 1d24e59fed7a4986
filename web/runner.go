package web

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/labs"
)

// latestFrame is a one-slot mailbox: the lab overwrites it at its own pace
// and never blocks; the forwarder takes whatever is newest.
type latestFrame struct {
	mu    sync.Mutex
	frame labs.Frame
	has   bool
	ready chan struct{} // capacity 1: "something new"
}

func newLatestFrame() *latestFrame { return &latestFrame{ready: make(chan struct{}, 1)} }

// put stores f. If an unsent frame is waiting, panels that f leaves nil
// are carried over from it, so coalescing never loses a panel update that
// a skipped frame made (a final frame with only stats must not leave the
// chart one step behind).
func (l *latestFrame) put(f labs.Frame) {
	l.mu.Lock()
	if l.has {
		p := l.frame
		if f.Stats == nil {
			f.Stats = p.Stats
		}
		if f.Text == nil {
			f.Text = p.Text
		}
		if f.Charts == nil {
			f.Charts = p.Charts
		}
		if f.Tables == nil {
			f.Tables = p.Tables
		}
	}
	l.frame, l.has = f, true
	l.mu.Unlock()
	select {
	case l.ready <- struct{}{}:
	default:
	}
}

func (l *latestFrame) take() (labs.Frame, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, ok := l.frame, l.has
	l.has = false
	return f, ok
}

// runResult is how a run ended.
type runResult struct {
	Final    *labs.Frame // the last frame sent, if it had Final set
	Err      error       // Run's error or a recovered panic
	Frames   int         // frames the lab emitted
	Sent     int         // frames forwarded to send
	SendErr  error       // the first send error (the client went away)
	Canceled bool        // ctx ended before the lab finished
}

// forwardRun starts the run of lab slug and forwards its frames to send, at most one
// per gap: frames that arrive faster are coalesced and only the newest is
// sent. The final frame is always sent once the lab returns. send runs on
// the calling goroutine only. A panic in the lab becomes an error.
func forwardRun(ctx context.Context, slug string, start func(context.Context, func(labs.Frame)) error, clk clock.Clock, gap time.Duration,
	send func(labs.Frame) error) runResult {
	mail := newLatestFrame()
	var res runResult
	var emitted int
	var mu sync.Mutex
	closed := false
	emit := func(f labs.Frame) {
		mu.Lock()
		defer mu.Unlock()
		if closed { // the contract forbids emit after Run returns; ignore it if it happens
			return
		}
		emitted++
		mail.put(f)
	}
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("lab %s panicked: %v\n%s", slug, r, debug.Stack())
			}
			mu.Lock()
			closed = true
			mu.Unlock()
			done <- err
		}()
		err = start(ctx, emit)
	}()

	var last time.Time
	sendOne := func(f labs.Frame) {
		if res.SendErr != nil {
			return
		}
		if err := send(f); err != nil {
			res.SendErr = err
			return
		}
		res.Sent++
		last = clk.Now()
		if f.Final {
			ff := f
			res.Final = &ff
		}
	}
	// finish runs once the lab has returned: whatever is in the mailbox is
	// its last word (the final frame), sent without waiting for the gap.
	finish := func(err error) runResult {
		if f, ok := mail.take(); ok {
			sendOne(f)
		}
		res.Err = err
		mu.Lock()
		res.Frames = emitted
		mu.Unlock()
		res.Canceled = ctx.Err() != nil
		return res
	}
	for {
		select {
		case err := <-done:
			return finish(err)
		case <-mail.ready:
			if wait := gap - clk.Now().Sub(last); !last.IsZero() && wait > 0 {
				select {
				case <-clk.After(wait):
				case err := <-done:
					return finish(err)
				}
			}
			if f, ok := mail.take(); ok {
				sendOne(f)
			}
		}
	}
}
