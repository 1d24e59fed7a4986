package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/web/store"
)

// backup copies a database into a new file that opens with its rows; a
// wrong invocation exits 2 with one line and writes nothing.
// t0Backup is when the learner finished the lesson the copy must keep.
var t0Backup = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)

func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "latencylab.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetLessonDone(context.Background(), "learner-1", "ttft", true, t0Backup); err != nil {
		t.Fatal(err)
	}
	defer st.Close() // still open, as under a running server

	existing := filepath.Join(dir, "taken.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no destination", []string{"backup", "--db", db}, 2, "--to is missing"},
		{"no database", []string{"backup", "--db", filepath.Join(dir, "none.db"), "--to", filepath.Join(dir, "x.db")}, 2, "no database at"},
		{"destination taken", []string{"backup", "--db", db, "--to", existing}, 2, "already exists"},
		{"stray argument", []string{"backup", "--db", db, "out.db"}, 2, "unexpected argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(tc.args...)
			if code != tc.code || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.err) {
				t.Fatalf("exit %d, stderr %q; want %d and one line with %q", code, stderr, tc.code, tc.err)
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("a refused backup overwrote %s: %q", existing, b)
	}

	to := filepath.Join(dir, "copy.db")
	code, out, stderr := runCLI("backup", "--db", db, "--to", to)
	if code != 0 || !strings.HasPrefix(out, "backed up "+db+" to "+to) {
		t.Fatalf("exit %d, out %q, stderr %q", code, out, stderr)
	}
	cp, err := store.Open(context.Background(), to)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	done, err := cp.DoneLessons(context.Background(), "learner-1")
	if err != nil || !done["ttft"].Equal(t0Backup) {
		t.Fatalf("the copy lost progress: %v, %v", done, err)
	}
}
