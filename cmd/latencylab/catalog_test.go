package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/lessons"
)

// TestCatalogMatchesLessons builds the real catalogue on a seeded temp
// database and checks that lessons and labs point at each other: every lab a
// lesson embeds exists, and every lab names a lesson that exists.
func TestCatalogMatchesLessons(t *testing.T) {
	ctx := context.Background()
	desk, err := openSupportDesk(ctx, filepath.Join(t.TempDir(), "ll.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer desk.Close()
	engines := labs.NewEngines(labs.EnginesConfig{})
	defer engines.Close()
	cat, err := newCatalog(catalogDeps{Engines: engines, Store: desk})
	if err != nil {
		t.Fatal(err)
	}
	if err := lessons.Err(); err != nil {
		t.Fatal(err)
	}
	for _, l := range lessons.All() {
		for _, slug := range l.Labs {
			if _, ok := cat.Get(slug); !ok {
				t.Errorf("lesson %q embeds lab %q, which the catalogue lacks (have %v)", l.Slug, slug, cat.Slugs())
			}
		}
	}
	for _, lab := range cat.All() {
		info := lab.Info()
		if info.Lesson == "" {
			continue
		}
		if _, ok := lessons.Get(info.Lesson); !ok {
			t.Errorf("lab %q names lesson %q, which does not exist", info.Slug, info.Lesson)
		}
	}
}
