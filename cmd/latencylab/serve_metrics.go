package main

import (
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
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
