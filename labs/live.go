package labs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// LiveConfig wires a lab whose learner's requests run on the shared engine
// pool while the handler times them.
type LiveConfig struct {
	// Engines is the shared pool the lab submits to; required. The lab
	// times its runs on the pool's clock.
	Engines *Engines
	// Tick is how often the panels refresh while nothing else happens
	// (waiting for the first token or for a check). 0 means 100 ms;
	// negative turns the refresh off.
	Tick time.Duration
	// RunTag fixes the tag in the lab's run ids and session lines, so its
	// prompts are the same on every run of a test; "" draws a random one,
	// as a running server must (see NewRunIDs).
	RunTag string
}

// Validate reports a configuration a live lab cannot run with.
func (c LiveConfig) Validate() error {
	if c.Engines == nil {
		return errors.New("no engine pool configured")
	}
	return nil
}

// LiveLab is what a lab on the shared engine pool holds besides its own
// code: its kit and the resolved LiveConfig. A lab embeds it and is built
// by NewLive; it is safe for concurrent runs.
type LiveLab[P Params] struct {
	*Kit[P]
	// Engines is the shared pool.
	Engines *Engines
	// Clock is the pool's clock: the handler measures and waits on it.
	Clock clock.Clock
	// Tick is the panel refresh period; 0 or less is off.
	Tick time.Duration
	// IDs number the runs so request ids and session lines are unique.
	IDs *RunIDs
}

// NewLive builds a lab L that embeds LiveLab[P]: it defines the lab's kit
// with run (a method expression such as (*Lab).run) bound to the new lab
// and resolves cfg for it. It fails when the kit's spec is wrong or cfg
// lacks the engine pool.
func NewLive[L any, PL interface {
	*L
	liveLab() *LiveLab[P]
}, P Params](cfg LiveConfig,
	define func(run func(context.Context, P, func(Frame)) error) (*Kit[P], error),
	run func(PL, context.Context, P, func(Frame)) error) (PL, error) {
	lab := PL(new(L))
	kit, err := define(func(ctx context.Context, p P, emit func(Frame)) error { return run(lab, ctx, p, emit) })
	if err != nil {
		return nil, err
	}
	slug := kit.Info().Slug
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s lab: %w", slug, err)
	}
	l := lab.liveLab()
	l.Kit, l.Engines, l.Clock, l.IDs = kit, cfg.Engines, cfg.Engines.Clock(), NewRunIDs(slug)
	if cfg.RunTag != "" {
		l.IDs = NewRunIDsTag(slug, cfg.RunTag)
	}
	l.Tick = cfg.Tick
	if l.Tick == 0 {
		l.Tick = 100 * time.Millisecond
	}
	return lab, nil
}

// liveLab lets NewLive reach the LiveLab inside the lab it builds.
func (l *LiveLab[P]) liveLab() *LiveLab[P] { return l }

// Ticker starts the panel refresh on the lab's clock; its C is nil when
// the refresh is off. Stop it when the run ends.
func (l *LiveLab[P]) Ticker() *clock.Ticker { return clock.NewTicker(l.Clock, l.Tick) }
