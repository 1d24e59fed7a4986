package labs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// arrivals submits synthetic requests at the dialled rate, with
// exponential gaps (a Poisson process, as independent users make).
func (r *Room) arrivals() {
	defer r.done.Done()
	rng := rand.New(rand.NewPCG(r.cfg.Seed, r.cfg.Seed^0x9e3779b97f4a7c15))
	for {
		var gap <-chan time.Time
		if rps := r.Load(); rps > 0 {
			gap = r.cfg.Clock.After(time.Duration(rng.ExpFloat64() / rps * float64(time.Second)))
		}
		select {
		case <-r.stop:
			return
		case <-r.wake: // the dial moved: draw the next gap at the new rate
		case <-gap:
			r.submit(rng)
		}
	}
}

// submit sends one synthetic request and drains it in the background.
func (r *Room) submit(rng *rand.Rand) {
	r.mu.Lock()
	if r.inFlight >= r.cfg.MaxInFlight {
		r.mu.Unlock()
		return
	}
	r.inFlight++
	r.seq++
	id := fmt.Sprintf("tenant-%d", r.seq)
	r.mu.Unlock()
	// Random token ids: other tenants share no prefix with anyone.
	prompt := make([]int, r.cfg.PromptTokens)
	for i := range prompt {
		prompt[i] = 1000 + rng.IntN(30000)
	}
	req := engine.Request{ID: id, PromptTokens: prompt, MaxTokens: r.cfg.OutputTokens, IgnoreEOS: true}
	finish := func() {
		r.mu.Lock()
		r.inFlight--
		r.mu.Unlock()
	}
	le, err := r.Pool.Get(r.cfg.Profile)
	if err != nil {
		finish()
		return
	}
	ctx, cancel := context.WithCancel(live.WithSource(context.Background(), SourceSynthetic))
	events, err := le.Submit(ctx, req)
	if err != nil {
		cancel()
		finish()
		return
	}
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		defer finish()
		defer cancel()
		for {
			select {
			case <-r.stop:
				return
			case ev, ok := <-events:
				if !ok || ev.Done {
					return
				}
			}
		}
	}()
}
