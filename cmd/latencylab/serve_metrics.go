package main

import (
	"fmt"
	"slices"
	"sync"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/servemetrics"
	"github.com/latencylab/latencylab/labs"
)

// servingMetrics is the one registry behind /metrics and the engine pools
// that report into it: every engine a pool starts has its finished requests
// observed (labs, /v1 and chat told apart by the "source" label) and its
// gauges read at scrape time.
type servingMetrics struct {
	*servemetrics.Metrics

	mu    sync.Mutex
	pools []meteredPool
}

// meteredPool is a pool and the prefix of its engines' "engine" label.
type meteredPool struct {
	prefix string
	pool   *labs.Engines
}

func newServingMetrics() (*servingMetrics, error) {
	sm := &servingMetrics{}
	met, err := servemetrics.New(servemetrics.Config{Engines: sm.engines})
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	sm.Metrics = met
	return sm, nil
}

// pool starts an engine pool whose engines report into the registry. The
// labs' pool has prefix ""; another pool (one kept for /v1, say) needs its
// own prefix, so that two engines of one profile keep apart.
func (sm *servingMetrics) pool(prefix string, cfg labs.EnginesConfig) *labs.Engines {
	cfg.Observer = sm.observer(prefix)
	pool := labs.NewEngines(cfg)
	sm.mu.Lock()
	sm.pools = append(sm.pools, meteredPool{prefix, pool})
	sm.mu.Unlock()
	return pool
}

// observer builds the histogram observer of an engine whose "engine"
// label is prefix and its profile. Workshop rooms use it too (prefix
// "room: "), so a room's requests are counted though its engines, one
// pool per room, are not in the gauges.
func (sm *servingMetrics) observer(prefix string) func(labs.Profile) live.Observer {
	return func(p labs.Profile) live.Observer {
		return sm.Observer(prefix+p.String(), canonicalModel(p.Model))
	}
}

// engines lists every pool's started engines for a scrape.
func (sm *servingMetrics) engines() []servemetrics.Engine {
	sm.mu.Lock()
	pools := slices.Clone(sm.pools)
	sm.mu.Unlock()
	var all []servemetrics.Engine
	for _, mp := range pools {
		mp.pool.Each(func(p labs.Profile, le *live.Engine) {
			all = append(all, servemetrics.Engine{Name: mp.prefix + p.String(), Model: le.Config().Model.Name, Engine: le})
		})
	}
	return all
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
