package main

import (
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/batching"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/cancellation"
	"github.com/latencylab/latencylab/labs/levers"
	"github.com/latencylab/latencylab/labs/moderation"
	"github.com/latencylab/latencylab/labs/prefilldecode"
	"github.com/latencylab/latencylab/labs/rag"
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
// adds its lab here, constructed from deps.
func newCatalog(deps catalogDeps) (*labs.Catalog, error) {
	return labs.NewCatalog(
		streaming.New(streaming.Config{Engines: deps.Engines}),
		prefilldecode.New(prefilldecode.Config{Engines: deps.Engines}),
		batching.New(batching.Config{Engines: deps.Engines}),
		moderation.New(moderation.Config{Engines: deps.Engines}),
		budget.New(budget.Config{Engines: deps.Engines, Retriever: deps.Store, Orders: deps.Store}),
		rag.New(rag.Config{Engines: deps.Engines, Retriever: deps.Store}),
		timeouts.New(timeouts.Config{Engines: deps.Engines, Retriever: deps.Store}),
		cancellation.New(cancellation.Config{Engines: deps.Engines, Retriever: deps.Store}),
		levers.New(levers.Config{Engines: deps.Engines, Retriever: deps.Store, Orders: deps.Store}),
	)
}
