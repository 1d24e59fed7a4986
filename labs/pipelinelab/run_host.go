package pipelinelab

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Host makes the named tiers of r hosted as h says: behind h's network,
// on h's GPU and, when other tenants' traffic is on, on an engine of the
// run's own that carries that traffic (warmed up before Host returns, and
// stopped when the run ends). Without traffic the tiers stay on the shared
// pool, so a workshop room still shares them; Idle leaves them as they
// are. Host tells the learner through emit before it starts one. A run stopped meanwhile gets ctx's error back,
// not the warm-up's.
func (r *Run) Host(ctx context.Context, h Hosting, emit func(labs.Frame), names ...string) error {
	if h == Idle {
		return nil
	}
	if h.Tenants > 0 {
		what := "the provider's engine"
		if len(names) > 1 {
			what = "the provider's engines"
		}
		emit(h.settling(what))
	}
	if err := r.host(ctx, h, names...); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("hosted provider: %w", err)
	}
	return nil
}

// host is Host without the learner's notice and the context's error.
func (r *Run) host(ctx context.Context, h Hosting, names ...string) error {
	ph := h.Pipeline()
	if r.ends == nil || r.Engines == nil {
		return fmt.Errorf("hosting: the run was not started by pipelinelab.New")
	}
	if err := ph.Validate(); err != nil {
		return err
	}
	clk := r.Engines.Clock()
	var hosted []*pipeline.HostedEngine // every one started: the last settles the run's timeline, the others follow it
	for _, name := range names {
		spec, err := LookupTier(name)
		if err != nil {
			return err
		}
		i := r.tierIndex(name)
		if i < 0 {
			return fmt.Errorf("tier %s is not in the run", name)
		}
		var le *live.Engine
		if ph.Tenants.On() {
			cfg, err := spec.EngineConfig()
			if err != nil {
				return err
			}
			he, err := pipeline.StartHostedEngine(cfg, ph, clk)
			if err != nil {
				return fmt.Errorf("tier %s: %w", name, err)
			}
			r.onEnd(func() { _ = he.Close() })
			hosted, le = append(hosted, he), he.Engine
		} else {
			prof := spec.Profile
			if ph.Hardware != "" {
				prof.Hardware = ph.Hardware
			}
			if le, err = r.Engines.Get(prof); err != nil {
				return fmt.Errorf("tier %s: %w", name, err)
			}
		}
		ep := pipeline.NewEngineProvider(le)
		ep.Clock = clk
		t := r.Tiers[i]
		t.Provider = ph.Behind(ep, clk)
		r.Tiers[i] = r.late.watch([]pipeline.Tier{t})[0]
	}
	if len(hosted) == 0 {
		return nil
	}
	up, _ := ph.Legs()
	if err := hosted[len(hosted)-1].WarmUp(ctx, up); err != nil { // the same traffic with or without the network
		return err
	}
	for _, he := range hosted[:len(hosted)-1] {
		he.Settled(up)
	}
	return nil
}
