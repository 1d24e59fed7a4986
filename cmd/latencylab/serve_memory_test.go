//go:build unix

package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGUSR1 makes the server collect and return its free memory, and say so
// in its log, once per signal.
func TestMemorySignalReleasesAndLogs(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var buf bytes.Buffer
	logs := &lockedWriter{w: &buf}
	watchMemorySignal(ctx, slog.New(slog.NewTextHandler(logs, nil)))
	count := func() int {
		logs.mu.Lock()
		defer logs.mu.Unlock()
		return strings.Count(buf.String(), "memory returned to the OS")
	}
	for want := 1; want <= 2; want++ {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 5*time.Second, "the release to be logged", func() bool { return count() >= want })
	}
	if n := count(); n != 2 {
		t.Errorf("%d release lines for 2 signals", n)
	}
	logs.mu.Lock()
	line := buf.String()
	logs.mu.Unlock()
	if !strings.Contains(line, "heap_live_mib=") || !strings.Contains(line, "heap_kept_mib=") {
		t.Errorf("the log line does not give the heap figures: %q", line)
	}
}
