package pipeline

import (
	"errors"
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
)

// TierSpec describes a tier served by the bundled engine.
type TierSpec struct {
	Name     string
	Model    string // engine model profile, e.g. "llama-3.1-8b"
	Hardware string // engine hardware profile, e.g. "h100-sxm"
	TP       int    // tensor-parallel GPUs
	PriceIn  float64
	PriceOut float64
	// Observer, when set, sees every request that finishes on the tier's
	// engine (serving metrics), labelled source "chat": the tiers serve
	// the support-desk chat.
	Observer live.Observer
}

// DefaultTierSpecs are the small, medium and large tiers. Prices are
// illustrative list prices of hosted open models, in US dollars per
// million tokens.
func DefaultTierSpecs() []TierSpec {
	return []TierSpec{
		{Name: "small", Model: "llama-3.2-3b", Hardware: "h100-sxm", TP: 1, PriceIn: 0.06, PriceOut: 0.06},
		{Name: "medium", Model: "llama-3.1-8b", Hardware: "h100-sxm", TP: 1, PriceIn: 0.18, PriceOut: 0.18},
		{Name: "large", Model: "llama-3.1-70b", Hardware: "h100-sxm", TP: 4, PriceIn: 0.88, PriceOut: 0.88},
	}
}

// EngineConfig is the engine configuration for a spec: the defaults with
// its model, hardware and parallelism.
func (s TierSpec) EngineConfig() (engine.Config, error) {
	cfg := engine.DefaultConfig()
	m, err := engine.LookupModel(s.Model)
	if err != nil {
		return cfg, fmt.Errorf("tier %s: %w", s.Name, err)
	}
	h, err := engine.LookupHardware(s.Hardware)
	if err != nil {
		return cfg, fmt.Errorf("tier %s: %w", s.Name, err)
	}
	cfg.Model, cfg.Hardware = m, h
	if s.TP > 0 {
		cfg.TP = s.TP
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("tier %s: %w", s.Name, err)
	}
	return cfg, nil
}

// StartEngineTiers starts one live engine per spec (paced by clk; nil is
// the wall clock) and returns tiers over them, with a func that closes
// every engine.
func StartEngineTiers(specs []TierSpec, clk clock.Clock) ([]Tier, func() error, error) {
	var engines []*live.Engine
	closeAll := func() error {
		var errs []error
		for _, e := range engines {
			errs = append(errs, e.Close())
		}
		return errors.Join(errs...)
	}
	tiers := make([]Tier, 0, len(specs))
	for _, s := range specs {
		cfg, err := s.EngineConfig()
		if err != nil {
			_ = closeAll()
			return nil, nil, err
		}
		e, err := live.New(live.Config{Engine: cfg, Clock: clk, Observer: s.Observer, Source: "chat"})
		if err != nil {
			_ = closeAll()
			return nil, nil, fmt.Errorf("tier %s: %w", s.Name, err)
		}
		engines = append(engines, e)
		tiers = append(tiers, Tier{Name: s.Name, Provider: NewEngineProvider(e), Model: s.Model,
			PriceIn: s.PriceIn, PriceOut: s.PriceOut})
	}
	return tiers, closeAll, nil
}
