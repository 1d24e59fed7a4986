package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// A backup taken while the server writes is a consistent database with
// every run committed before it began, and it leaves the live file as it
// was: an answer still streaming stays streaming there.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	const before = 40
	for i := range before {
		if _, err := s.SaveRun(ctx, Run{Learner: "alice", Lab: "streaming", CreatedAt: t0.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	conv, err := s.CreateConversation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartAnswer(ctx, pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: "where is my order?"},
		pipeline.SavedMessage{Role: "assistant", Status: pipeline.StatusStreaming}); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.SaveRun(ctx, Run{Learner: "bob", Lab: "batching", CreatedAt: t0.Add(time.Duration(i) * time.Millisecond)}); err != nil {
				t.Errorf("write during backup: %v", err)
				return
			}
		}
	})
	dst := filepath.Join(t.TempDir(), "copy.db")
	err = Backup(ctx, path, dst)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("Backup: %v", err)
	}

	msgs, err := s.ListMessages(ctx, "alice", conv)
	if err != nil || len(msgs) != 2 || msgs[1].Status != pipeline.StatusStreaming {
		t.Fatalf("live file after backup: %+v, %v; want the answer still streaming", msgs, err)
	}
	cp, err := Open(ctx, dst)
	if err != nil {
		t.Fatalf("open backup: %v", err)
	}
	defer cp.Close()
	var check string
	if err := cp.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check of the backup = %q, %v", check, err)
	}
	runs, err := cp.ListRuns(ctx, "alice", "streaming", 100)
	if err != nil || len(runs) != before {
		t.Fatalf("backup has %d of alice's runs (%v), want %d", len(runs), err, before)
	}
	if n := cp.InterruptedOnOpen(); n != 1 {
		t.Errorf("opening the backup marked %d answers interrupted, want the 1 in flight", n)
	}
}

// Backup refuses what it cannot do without losing a file, and leaves no
// partial copy behind.
func TestBackupRefuses(t *testing.T) {
	ctx := context.Background()
	_, path := openTemp(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("last good copy"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src, dst string
		want           error
	}{
		{"empty source", "", filepath.Join(dir, "a.db"), ErrInvalid},
		{"empty destination", path, " ", ErrInvalid},
		{"missing source", filepath.Join(dir, "nope.db"), filepath.Join(dir, "b.db"), fs.ErrNotExist},
		{"destination exists", path, existing, ErrBackupExists},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Backup(ctx, tc.src, tc.dst)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Backup(%q, %q) = %v, want %v", tc.src, tc.dst, err, tc.want)
			}
		})
	}
	if b, err := os.ReadFile(existing); err != nil || string(b) != "last good copy" {
		t.Errorf("existing file changed: %q, %v", b, err)
	}
	for _, name := range []string{"a.db", "b.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind: %v", name, err)
		}
	}
}
