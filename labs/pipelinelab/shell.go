package pipelinelab

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Shell is what every pipeline lab embeds: its kit (knobs, presets,
// decoding), the shared live-engine pool its model tiers run on, and the
// numbering that keeps each run's request ids and session lines apart from
// every other run's on that pool. A lab adds its own Config beside it.
type Shell[P labs.Params] struct {
	*labs.Kit[P]
	engines *labs.Engines
	ids     *labs.RunIDs
}

// Build fills lab's shell s: it defines the kit with define and run (a
// method of lab, so it sees lab's config) and numbers runs under the
// lab's slug. It returns lab, or an error when there is no engine pool or
// the kit is refused. A lab's New ends with it:
//
//	l := &Lab{cfg: cfg}
//	return pipelinelab.Build(l, &l.Shell, cfg.Engines, define, run)
func Build[L any, P labs.Params](lab L, s *Shell[P], engines *labs.Engines,
	define func(func(context.Context, P, func(labs.Frame)) error) (*labs.Kit[P], error),
	run func(context.Context, P, func(labs.Frame)) error) (L, error) {
	kit, err := define(run)
	if err != nil {
		var none L
		return none, err
	}
	slug := kit.Info().Slug
	if engines == nil {
		var none L
		return none, fmt.Errorf("%s: no engine pool configured", slug)
	}
	s.Kit, s.engines, s.ids = kit, engines, labs.NewRunIDs(slug)
	return lab, nil
}

// Engines is the shared live-engine pool.
func (s *Shell[P]) Engines() *labs.Engines { return s.engines }

// NextRun numbers a new run: its sequence number (from 1, a seed) and its
// id, which request ids and session lines start with.
func (s *Shell[P]) NextRun() (uint64, string) { return s.ids.Next() }

// Run is one numbered run of a pipeline lab and the model tiers it sends
// to, served by the shared pool.
type Run struct {
	Seq   uint64 // from 1; seeds the run's randomness
	ID    string // unique per run; request ids and session lines start with it
	Tiers []pipeline.Tier
}

// Started turns a run that needs a numbered Run with its tiers into a run
// of the lab's settings, so every pipeline lab starts the same way.
func Started[P labs.Params, S any](s *Shell[P], run func(context.Context, Run, S, func(labs.Frame)) error) func(context.Context, S, func(labs.Frame)) error {
	return func(ctx context.Context, set S, emit func(labs.Frame)) error {
		tiers, err := Tiers(s.engines)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Info().Slug, err)
		}
		seq, id := s.ids.Next()
		return run(ctx, Run{Seq: seq, ID: id, Tiers: tiers}, set, emit)
	}
}
