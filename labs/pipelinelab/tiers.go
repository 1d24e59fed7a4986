// Package pipelinelab is the wiring the pipeline labs share: model tiers
// served by the shared live-engine pool, a support conversation to draw
// history from, a dry run that captures what the pipeline would send to the
// model, and the arithmetic of runs (percentiles, histograms, fits).
package pipelinelab

import (
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Illustrative list prices of hosted open models, in US dollars per million
// tokens (input, output). They only make costs comparable between tiers and
// levers; no bill is computed from them.
const (
	PriceSmallIn   = 0.06
	PriceSmallOut  = 0.12
	PriceMediumIn  = 0.18
	PriceMediumOut = 0.36
	PriceLargeIn   = 0.88
	PriceLargeOut  = 1.76
)

// Tier names, from the fastest and cheapest to the slowest and dearest.
const (
	TierSmall  = "small"
	TierMedium = "medium"
	TierLarge  = "large"
)

// TierSpec is one tier: its engine deployment and prices.
type TierSpec struct {
	Name     string
	Label    string
	Profile  labs.Profile
	PriceIn  float64
	PriceOut float64
}

// TierSpecs are the three tiers, each one engine profile.
func TierSpecs() []TierSpec {
	return []TierSpec{
		{Name: TierSmall, Label: "Small (Llama 3.2 3B, 1× H100)", PriceIn: PriceSmallIn, PriceOut: PriceSmallOut,
			Profile: labs.Profile{Hardware: "h100-sxm", Model: "llama-3.2-3b"}},
		{Name: TierMedium, Label: "Medium (Llama 3.1 8B, 1× H100)", PriceIn: PriceMediumIn, PriceOut: PriceMediumOut,
			Profile: labs.Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}},
		{Name: TierLarge, Label: "Large (Llama 3.1 70B, 4× H100)", PriceIn: PriceLargeIn, PriceOut: PriceLargeOut,
			Profile: labs.Profile{Hardware: "h100-sxm", Model: "llama-3.1-70b", TP: 4}},
	}
}

// TierOptions are the tiers as enum knob options.
func TierOptions() []labs.Option {
	var out []labs.Option
	for _, s := range TierSpecs() {
		out = append(out, labs.Option{Value: s.Name, Label: s.Label})
	}
	return out
}

// LookupTier finds a tier by name.
func LookupTier(name string) (TierSpec, error) {
	for _, s := range TierSpecs() {
		if s.Name == name {
			return s, nil
		}
	}
	return TierSpec{}, fmt.Errorf("unknown tier %q", name)
}

// EngineConfig is the engine configuration of a tier, for runs on the
// virtual clock that must match the tier's live engine.
func (s TierSpec) EngineConfig() (engine.Config, error) { return s.Profile.Config() }

// TierEngineConfig is the engine configuration of the tier named name.
func TierEngineConfig(name string) (engine.Config, error) {
	spec, err := LookupTier(name)
	if err != nil {
		return engine.Config{}, err
	}
	return spec.EngineConfig()
}

// Tiers returns every tier as a pipeline tier over the shared pool's live
// engines (started on first use), so lab runs queue and batch with
// everyone else's requests on the same model.
func Tiers(pool *labs.Engines) ([]pipeline.Tier, error) {
	if pool == nil {
		return nil, fmt.Errorf("pipeline labs: no engine pool")
	}
	var out []pipeline.Tier
	for _, s := range TierSpecs() {
		le, err := pool.Get(s.Profile)
		if err != nil {
			return nil, fmt.Errorf("tier %s: %w", s.Name, err)
		}
		ep := pipeline.NewEngineProvider(le)
		ep.Clock = pool.Clock()
		out = append(out, pipeline.Tier{Name: s.Name, Provider: ep,
			Model: s.Profile.Model, PriceIn: s.PriceIn, PriceOut: s.PriceOut})
	}
	return out, nil
}
