package main

import (
	"fmt"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/batching"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/cancellation"
	"github.com/latencylab/latencylab/labs/levers"
	"github.com/latencylab/latencylab/labs/moderation"
	"github.com/latencylab/latencylab/labs/prefilldecode"
	"github.com/latencylab/latencylab/labs/rag"
	"github.com/latencylab/latencylab/labs/stack"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/labs/timeouts"
	"github.com/latencylab/latencylab/web/store"
)

// catalogDeps is what labs share: the default engine profile picked by the
// serve flags and the pool of live engines every wall-clock lab runs on.
type catalogDeps struct {
	Profile labs.Profile
	Engines *labs.Engines
	// Store is the seeded support desk (knowledge base, orders) that the
	// pipeline labs retrieve from; it must be open and seeded.
	Store *store.Store
}

// newCatalog builds the lab catalogue in display order. Each lab helper
// adds its lab here, constructed from deps; a lab refuses missing
// dependencies here, at start, rather than on a learner's first run.
func newCatalog(deps catalogDeps) (*labs.Catalog, error) {
	builders := []func() (labs.Lab, error){
		func() (labs.Lab, error) { return streaming.New(streaming.Config{Engines: deps.Engines}) },
		func() (labs.Lab, error) { return prefilldecode.New(prefilldecode.Config{Engines: deps.Engines}) },
		func() (labs.Lab, error) { return batching.New(batching.Config{Engines: deps.Engines}) },
		func() (labs.Lab, error) { return moderation.New(moderation.Config{Engines: deps.Engines}) },
		func() (labs.Lab, error) {
			return budget.New(budget.Config{Engines: deps.Engines, Retriever: deps.Store, Orders: deps.Store})
		},
		func() (labs.Lab, error) { return rag.New(rag.Config{Engines: deps.Engines, Retriever: deps.Store}) },
		func() (labs.Lab, error) {
			return timeouts.New(timeouts.Config{Engines: deps.Engines, Retriever: deps.Store})
		},
		func() (labs.Lab, error) {
			return cancellation.New(cancellation.Config{Engines: deps.Engines, Retriever: deps.Store})
		},
		func() (labs.Lab, error) { return stack.New(stack.Config{Engines: deps.Engines}) },
		func() (labs.Lab, error) {
			return levers.New(levers.Config{Engines: deps.Engines, Retriever: deps.Store, Orders: deps.Store})
		},
	}
	all := make([]labs.Lab, 0, len(builders))
	for _, build := range builders {
		l, err := build()
		if err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		all = append(all, l)
	}
	return labs.NewCatalog(all...)
}
