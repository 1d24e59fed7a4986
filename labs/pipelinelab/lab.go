package pipelinelab

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Run is one numbered run of a pipeline lab and the model tiers it sends
// to, served by the shared live-engine pool.
type Run struct {
	Seq   uint64 // from 1; seeds the run's randomness
	ID    string // unique per run; request ids and session lines start with it
	Tiers []pipeline.Tier
}

// New builds a pipeline lab from its kit declaration: define (the lab's
// knobs and presets) over a run that derives the lab's settings from the
// checked params, numbers the run (so its request ids and session lines
// never collide on the shared pool, nor reuse another run's cached
// prefixes) and connects the model tiers on engines before handing over
// to run. It fails when there is no engine pool or the kit is refused.
func New[P labs.Params, S any](engines *labs.Engines,
	define func(func(context.Context, P, func(labs.Frame)) error) (*labs.Kit[P], error),
	derive func(P) (S, error), run func(context.Context, Run, S, func(labs.Frame)) error) (*labs.Kit[P], error) {
	var slug string
	var ids *labs.RunIDs // both set below, before any run can start
	kit, err := define(labs.Settled(derive, func(ctx context.Context, s S, emit func(labs.Frame)) error {
		tiers, err := Tiers(engines)
		if err != nil {
			return fmt.Errorf("%s: %w", slug, err)
		}
		seq, id := ids.Next()
		return run(ctx, Run{Seq: seq, ID: id, Tiers: tiers}, s, emit)
	}))
	if err != nil {
		return nil, err
	}
	slug = kit.Info().Slug
	if engines == nil {
		return nil, fmt.Errorf("%s: no engine pool configured", slug)
	}
	ids = labs.NewRunIDs(slug)
	return kit, nil
}
