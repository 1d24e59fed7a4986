package main

import (
	"fmt"
	"slices"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/servemetrics"
	"github.com/latencylab/latencylab/labs"
)

// newMeteredEngines is the one place the /metrics registry is built: it
// starts the labs' engine pool with every engine reporting its finished
// requests (labs and /v1 alike, told apart by the "source" label) and its
// gauges into the registry.
func newMeteredEngines(cfg labs.EnginesConfig) (*labs.Engines, *servemetrics.Metrics, error) {
	var engines *labs.Engines
	met, err := servemetrics.New(servemetrics.Config{Engines: func() []servemetrics.Engine {
		var all []servemetrics.Engine
		engines.Each(func(p labs.Profile, le *live.Engine) {
			all = append(all, servemetrics.Engine{Name: p.String(), Model: le.Config().Model.Name, Engine: le})
		})
		return all
	}})
	if err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	cfg.Observer = func(p labs.Profile) live.Observer { return met.Observer(p.String(), canonicalModel(p.Model)) }
	engines = labs.NewEngines(cfg)
	return engines, met, nil
}

// canonicalModel is the model's own spelling of its name (profiles are
// looked up case-insensitively), so histograms and gauges share one
// model_name label.
func canonicalModel(name string) string {
	if m, err := engine.LookupModel(name); err == nil {
		return m.Name
	}
	return name
}

// chatEngineName is a chat tier's "engine" label.
func chatEngineName(s pipeline.TierSpec) string { return "chat " + s.Name }

// meterChatTiers gives each chat tier's engine an observer; nil met leaves
// the specs as they are.
func meterChatTiers(met *servemetrics.Metrics, specs []pipeline.TierSpec) []pipeline.TierSpec {
	if met == nil {
		return specs
	}
	out := slices.Clone(specs)
	for i := range out {
		out[i].Observer = met.Observer(chatEngineName(out[i]), canonicalModel(out[i].Model))
	}
	return out
}

// trackChatTiers adds the chat tiers' engines (started from specs, in
// order) to the gauges.
func trackChatTiers(met *servemetrics.Metrics, specs []pipeline.TierSpec, tiers []pipeline.Tier) {
	if met == nil {
		return
	}
	for i, t := range tiers {
		if ep, ok := t.Provider.(*pipeline.EngineProvider); ok && i < len(specs) {
			met.Track(servemetrics.Engine{Name: chatEngineName(specs[i]), Model: ep.Engine.Config().Model.Name, Engine: ep.Engine})
		}
	}
}
