package main

import (
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/batching"
	"github.com/latencylab/latencylab/labs/moderation"
	"github.com/latencylab/latencylab/labs/prefilldecode"
	"github.com/latencylab/latencylab/labs/streaming"
)

// catalogDeps is what labs share: the default engine profile picked by the
// serve flags and the pool of live engines every wall-clock lab runs on.
type catalogDeps struct {
	Profile labs.Profile
	Engines *labs.Engines
}

// newCatalog builds the lab catalogue in display order. Each lab helper
// adds its lab here, constructed from deps.
func newCatalog(deps catalogDeps) (*labs.Catalog, error) {
	return labs.NewCatalog(
		streaming.New(streaming.Config{Engines: deps.Engines}),
		prefilldecode.New(prefilldecode.Config{Engines: deps.Engines}),
		batching.New(batching.Config{Engines: deps.Engines}),
		moderation.New(moderation.Config{Engines: deps.Engines}),
	)
}
