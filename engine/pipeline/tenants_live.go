package pipeline

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
)

// Tenants is a background load running on a live engine (see StartTenants).
type Tenants struct {
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	inFlight atomic.Int64
	sent     atomic.Int64
	dropped  atomic.Int64
}

// StartTenants sends load's requests to e at their arrival times on clk
// (nil: the wall clock) until Stop, reading and discarding their tokens.
// At most load.MaxInFlight run at once; later arrivals are dropped, so a
// rate the engine cannot serve never piles up without bound. It returns at
// once; the load runs in goroutines that Stop ends.
func StartTenants(e *live.Engine, clk clock.Clock, load TenantLoad) *Tenants {
	ctx, cancel := context.WithCancel(context.Background())
	t := &Tenants{cancel: cancel}
	if !load.On() {
		return t
	}
	clk = clock.Or(clk)
	start := clk.Now()
	g := newTenantGen(load)
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		for {
			req := g.next()
			if clock.Sleep(ctx, clk, start.Add(req.Arrival).Sub(clk.Now())) != nil {
				return
			}
			if t.inFlight.Load() >= int64(load.cap()) {
				t.dropped.Add(1)
				continue
			}
			events, err := e.Submit(ctx, req)
			if err != nil { // the engine closed or refused it: nothing to drain
				t.dropped.Add(1)
				continue
			}
			t.sent.Add(1)
			t.inFlight.Add(1)
			t.wg.Add(1)
			go func() {
				defer t.wg.Done()
				defer t.inFlight.Add(-1)
				for range events { // closed after the final event, or on Stop
				}
			}()
		}
	}()
	return t
}

// Sent is how many background requests reached the engine so far.
func (t *Tenants) Sent() int { return int(t.sent.Load()) }

// Dropped is how many arrivals the cap (or a closed engine) turned away.
func (t *Tenants) Dropped() int { return int(t.dropped.Load()) }

// Stop aborts the background requests still running and waits until every
// goroutine of the load has returned.
func (t *Tenants) Stop() {
	t.cancel()
	t.wg.Wait()
}
