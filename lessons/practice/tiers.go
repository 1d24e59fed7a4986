package practice

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// tierSetup is the pipeline's own tier (small, medium or large) as the
// chat and the pipeline labs serve it.
func tierSetup(name string) (setup, pipeline.TierSpec, error) {
	for _, spec := range pipeline.DefaultTierSpecs() {
		if spec.Name != name {
			continue
		}
		cfg, err := spec.EngineConfig()
		if err != nil {
			return setup{}, spec, err
		}
		cfg.PrefixCaching = false
		fp, err := cfg.Footprint()
		if err != nil {
			return setup{}, spec, err
		}
		d := deployment{model: spec.Model, gpu: spec.Hardware, tp: cfg.TP, precision: cfg.Precision}
		return setup{d: d, cfg: cfg, fp: fp}, spec, nil
	}
	return setup{}, pipeline.TierSpec{}, fmt.Errorf("no tier %q", name)
}

// stages are the pre-model steps of the support assistant's request, as
// the latency-budget lab draws them.
type stages struct {
	guard, history, retrieval, order, gateway time.Duration
}

func drawStages(r *rand.Rand) stages {
	ms := func(lo, hi, step int) time.Duration {
		return time.Duration(between(r, lo, hi, step)) * time.Millisecond
	}
	return stages{guard: ms(40, 160, 10), history: ms(20, 80, 5), retrieval: ms(80, 400, 10),
		order: ms(30, 150, 10), gateway: ms(10, 40, 5)}
}

func (s stages) lookupsSum() time.Duration { return s.history + s.retrieval + s.order }
func (s stages) lookupsMax() time.Duration { return max(s.history, s.retrieval, s.order) }

func (s stages) facts() []Fact {
	return given("Input guardrail", fmtDur(s.guard), "History lookup", fmtDur(s.history),
		"Document retrieval", fmtDur(s.retrieval), "Order lookup", fmtDur(s.order), "Gateway hop", fmtDur(s.gateway))
}
