package pipelinelab

import (
	"errors"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Config wires a pipeline lab: every one of them runs on the shared
// live-engine pool and looks up the same support desk, so they all take
// this one struct (each lab's package names it Config).
type Config struct {
	// Engines is the shared live-engine pool the model tiers run on;
	// required.
	Engines *labs.Engines
	// Retriever is the knowledge base (web/store in the app); nil switches
	// retrieval off (a lab about retrieval refuses to start without it).
	Retriever pipeline.Retriever
	// Orders is the order system (web/store in the app); nil switches the
	// order lookup off. Labs that never look an order up ignore it.
	Orders pipeline.Orders
	// RunTag fixes the tag in run ids and session lines ("": a random
	// one per lab), so tests that compare two runs send the same prompts.
	RunTag string
}

// Validate reports a missing engine pool.
func (c Config) Validate() error {
	if c.Engines == nil {
		return errors.New("no engine pool configured")
	}
	return nil
}
