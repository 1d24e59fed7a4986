package web

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// errClientGone is the cancel cause of work whose page stopped taking
// patches: nobody is left to see the rest.
var errClientGone = errors.New("the page stopped receiving updates")

// streamRunner runs streamed work — a lab run, a chat answer — for one
// request and forwards its updates to the page. The work publishes at its
// own pace and never waits for the page; the page gets at most one patch
// per Gap, always the newest state, and the last state once the work is
// done. Every field is required except Merge.
type streamRunner[T any] struct {
	// Name says what runs, in the error a recovered panic becomes.
	Name string
	// Clock spaces the patches; tests inject one.
	Clock clock.Clock
	// Gap is the least time between the starts of two patches: updates
	// that come faster are coalesced, each patch carrying the whole state.
	Gap time.Duration
	// Merge folds an update that was never sent into the one replacing
	// it, for updates that carry only part of the state (a lab frame
	// that leaves a panel out); nil means the newer update wins whole.
	Merge func(unsent, next T) T
}

// streamResult is how streamed work ended.
type streamResult[T any] struct {
	Last      T     // the last update sent; the zero value if Sent is 0
	Sent      int   // updates sent to the page
	Published int   // updates the work published
	Err       error // the work's own error, or a panic it raised
	SendErr   error // the first failed send: the page went away, nothing was sent after it
	Canceled  bool  // the run's context ended before the work returned
	Cause     error // why the run's context ended, when Canceled
}

// run starts work in a goroutine under ctx and forwards what it publishes
// to send, which runs on the calling goroutine only. It returns once the
// work has returned, after sending the newest unsent update without
// waiting for the gap. A failed send stops the sending and cancels the
// work with errClientGone; a panic in the work becomes its error.
func (r streamRunner[T]) run(ctx context.Context, work func(ctx context.Context, publish func(T)) error, send func(T) error) streamResult[T] {
	workCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	box := &mailbox[T]{merge: r.Merge, ready: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("%s panicked: %v\n%s", r.Name, p, debug.Stack())
			}
			box.close()
			done <- err
		}()
		err = work(workCtx, box.put)
	}()

	var res streamResult[T]
	var lastStart time.Time
	forward := func() {
		v, ok := box.take()
		if !ok || res.SendErr != nil {
			return
		}
		lastStart = r.Clock.Now()
		if err := send(v); err != nil {
			res.SendErr = err
			cancel(errClientGone)
			return
		}
		res.Sent++
		res.Last = v
	}
	finish := func(err error) streamResult[T] {
		forward() // the work's last word, without waiting for the gap
		res.Err = err
		res.Published = box.published()
		if ctx.Err() != nil {
			res.Canceled, res.Cause = true, context.Cause(ctx)
		}
		return res
	}
	for {
		select {
		case err := <-done:
			return finish(err)
		case <-box.ready:
			if wait := r.Gap - r.Clock.Now().Sub(lastStart); !lastStart.IsZero() && wait > 0 {
				select {
				case <-r.Clock.After(wait):
				case err := <-done:
					return finish(err)
				}
			}
			forward()
		}
	}
}

// mailbox holds the newest unsent update. The work puts into it without
// ever blocking; the runner takes whatever is newest when the page is due
// a patch.
type mailbox[T any] struct {
	merge func(unsent, next T) T
	ready chan struct{} // capacity 1: "something new"

	mu     sync.Mutex
	value  T
	full   bool
	count  int
	closed bool
}

// put stores v, merged with the update it replaces if that was not sent.
// After close it does nothing: work must not publish after it returns,
// and if it does, nobody is listening.
func (m *mailbox[T]) put(v T) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	if m.full && m.merge != nil {
		v = m.merge(m.value, v)
	}
	m.value, m.full = v, true
	m.count++
	m.mu.Unlock()
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

// take empties the mailbox.
func (m *mailbox[T]) take() (T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.value, m.full
	var zero T
	m.value, m.full = zero, false // drop the reference: the page has it now
	return v, ok
}

// close refuses later puts.
func (m *mailbox[T]) close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
}

// published counts the updates put.
func (m *mailbox[T]) published() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// runContext is the context streamed work runs under. It ends with the
// request, when the server begins to shut down (cause errShuttingDown),
// after RunTimeout (cause tooLong) or when stop is called with a cause.
// Call release once the work is over.
func (s *Server) runContext(request context.Context, tooLong error) (ctx context.Context, stop context.CancelCauseFunc, release func()) {
	ctx, stop = context.WithCancelCause(request)
	stopWatch := context.AfterFunc(s.stopCtx, func() { stop(errShuttingDown) })
	ctx, cancelTimeout := context.WithTimeoutCause(ctx, s.cfg.RunTimeout, tooLong)
	return ctx, stop, func() {
		cancelTimeout()
		stopWatch()
		stop(nil)
	}
}
