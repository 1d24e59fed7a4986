package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Helpers shared by the gated tests that build and run the real binary
// (the crash test, the load test): a separate process is the only way to
// SIGKILL the server or read its own goroutine and RSS figures.

// buildBinary builds latencylab into a temp dir, as a user would install it.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "latencylab")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// binary is one run of the real server.
type binary struct {
	cmd    *exec.Cmd
	url    string
	stderr *bytes.Buffer
	done   chan error
}

// runBinary runs `latencylab serve --addr 127.0.0.1:0` with the extra
// args and env, and waits for its "running at" line. The process is
// killed when the test ends if it is still running.
func runBinary(t *testing.T, bin string, args, env []string) *binary {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &binary{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	cmd.Stderr = &lockedWriter{w: b.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	go func() { b.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-b.done
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Latency Lab is running at") {
				lines <- sc.Text()
			}
		}
	}()
	select {
	case line := <-lines:
		i := strings.Index(line, "http://")
		if i < 0 {
			t.Fatalf("startup line %q has no URL", line)
		}
		b.url = strings.Fields(line[i:])[0]
	case err := <-b.done:
		t.Fatalf("serve exited before it was ready: %v\n%s", err, b.logs())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start in 60 s\n%s", b.logs())
	}
	return b
}

func (b *binary) kill(t *testing.T) {
	t.Helper()
	if err := b.cmd.Process.Kill(); err != nil { // SIGKILL: no shutdown code runs
		t.Fatalf("kill: %v", err)
	}
	<-b.done
}

func (b *binary) stop(t *testing.T) {
	t.Helper()
	b.cmd.Process.Signal(os.Interrupt)
	select {
	case <-b.done:
	case <-time.After(15 * time.Second):
		t.Error("serve did not stop on SIGINT")
		b.cmd.Process.Kill()
		<-b.done
	}
}

// lockedWriter lets the child's stderr be copied while the test reads it.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// logs is what the server wrote to stderr so far.
func (b *binary) logs() string {
	w := b.cmd.Stderr.(*lockedWriter)
	w.mu.Lock()
	defer w.mu.Unlock()
	return b.stderr.String()
}

func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s after %v", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
