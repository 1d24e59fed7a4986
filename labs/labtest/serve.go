package labtest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web"
	"github.com/latencylab/latencylab/web/store"
)

// ServeLabs starts the web app with the given labs alone in its catalogue,
// on a free local port with a temp database, and returns its base URL. The
// server stops when the test ends.
func ServeLabs(t testing.TB, ls ...labs.Lab) string {
	t.Helper()
	cat, err := labs.NewCatalog(ls...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.New(web.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(t.TempDir(), "e2e.db"), Catalog: cat,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go s.Serve(ctx, ln)
	return "http://" + ln.Addr().String()
}

// SupportDesk opens a seeded support-desk store in a temp file, as serve
// does, so lookups run real SQLite queries. It closes when the test ends.
func SupportDesk(t testing.TB) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "desk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.SeedSupportDesk(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}
