package pipelinelab

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Run is one numbered run of a pipeline lab: the lab's wiring and the
// model tiers it sends to, served by the shared live-engine pool.
type Run struct {
	Config
	Seq   uint64 // from 1; seeds the run's randomness
	ID    string // unique per run; request ids and session lines start with it
	Tiers []pipeline.Tier
	// late times the tiers' chunks for the busy-host note; ends are run
	// when the run returns (hosted engines to stop, see Host).
	late *lateness
	ends *[]func()
}

// New builds a pipeline lab from its kit declaration: define (the lab's
// knobs and presets) over a run that derives the lab's settings from the
// checked params, numbers the run (so its request ids and session lines
// never collide on the shared pool, nor reuse another run's cached
// prefixes) and connects the model tiers on cfg.Engines before handing over
// to run with cfg. The run's final status says when a busy host ran the
// pipeline's stages or read the engine's tokens late (the figures are the
// modelled times, so the delay is not in them; a lab builds its
// pipeline's Deps with Run.Deps). It fails when cfg is invalid or the kit is refused.
func New[P labs.Params, S any](cfg Config,
	define func(func(context.Context, P, func(labs.Frame)) error) (*labs.Kit[P], error),
	derive func(P) (S, error), run func(context.Context, Run, S, func(labs.Frame)) error) (*labs.Kit[P], error) {
	var slug string
	var ids *labs.RunIDs // both set below, before any run can start
	kit, err := define(labs.Settled(derive, func(ctx context.Context, s S, emit func(labs.Frame)) error {
		rc := cfg
		rc.Engines = cfg.Engines.For(ctx) // a workshop room's engines, if the run is a room's
		tiers, err := Tiers(rc.Engines)
		if err != nil {
			return fmt.Errorf("%s: %w", slug, err)
		}
		seq, id := ids.Next()
		late := &lateness{clk: rc.Engines.Clock()}
		out := newForwarder(late.final(emit))
		defer out.close() // after the hosted engines stop, so the last frame is out before the run returns
		var ends []func()
		defer func() {
			for _, end := range ends {
				end()
			}
		}()
		// Tiers are copied so Host can replace one without touching another run's.
		return run(ctx, Run{Config: rc, Seq: seq, ID: id, Tiers: late.watch(tiers), late: late, ends: &ends}, s, out.send)
	}))
	if err != nil {
		return nil, err
	}
	slug = kit.Info().Slug
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", slug, err)
	}
	ids = labs.NewRunIDs(slug)
	if cfg.RunTag != "" {
		ids = labs.NewRunIDsTag(slug, cfg.RunTag)
	}
	return kit, nil
}
