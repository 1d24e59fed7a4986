package main

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// Every lab that runs on the shared pool runs on a workshop room's pool
// instead when its run carries one: a room's load is real load only if
// no lab slips back to the server's pool.
func TestEveryLabRunsOnTheRoomsEngines(t *testing.T) {
	ctx := context.Background()
	desk, err := openSupportDesk(ctx, filepath.Join(t.TempDir(), "ll.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer desk.Close()
	server := labs.NewEngines(labs.EnginesConfig{})
	defer server.Close()
	cat, err := newCatalog(catalogDeps{Engines: server, Store: desk})
	if err != nil {
		t.Fatal(err)
	}
	// Knobs a lab needs to use the shared pool at all.
	raw := map[string]map[string]any{"batching": {"sharedEngine": true, "requests": 4.0}}
	rooms := map[string]*labs.Engines{}
	var wg sync.WaitGroup
	for _, lab := range cat.All() {
		slug := lab.Info().Slug
		room := labs.NewEngines(labs.EnginesConfig{})
		defer room.Close()
		rooms[slug] = room
		wg.Go(func() {
			// The engines start at the top of a run; a few seconds are
			// enough to see which pool they came from.
			rctx, cancel := context.WithTimeout(labs.WithEngines(ctx, room), 4*time.Second)
			defer cancel()
			settings := raw[slug]
			if settings == nil {
				settings = map[string]any{}
			}
			run, errs := lab.Decode(settings)
			if len(errs) > 0 {
				t.Errorf("%s: %v", slug, errs)
				return
			}
			_ = run.Start(rctx, func(labs.Frame) {})
		})
	}
	wg.Wait()
	for slug, room := range rooms {
		if room.Len() == 0 {
			t.Errorf("%s ran without touching the room's engines", slug)
		}
	}
	if n := server.Len(); n != 0 {
		t.Errorf("the server's pool started %d engines for runs that belonged to a room", n)
	}
}
