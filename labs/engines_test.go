package labs

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
)

// testPool returns a pool on the wall clock: these tests start engines but
// run no requests, so nothing waits on it.
func testPool(t *testing.T) *Engines {
	t.Helper()
	pool := NewEngines(EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	return pool
}

func TestEnginesSharePerProfile(t *testing.T) {
	pool := testPool(t)
	h100 := Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
	a, err := pool.Get(h100)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    Profile
		same bool
	}{
		{"same profile", h100, true},
		{"explicit defaults", Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b", Precision: engine.BF16, TP: 1}, true},
		{"other GPU", Profile{Hardware: "l4", Model: "llama-3.1-8b"}, false},
		{"other model", Profile{Hardware: "h100-sxm", Model: "llama-3.2-1b"}, false},
		{"other precision", Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b", Precision: engine.FP8}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := pool.Get(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if (a == b) != tc.same {
				t.Errorf("same engine = %v, want %v", a == b, tc.same)
			}
			if got := b.Config().Hardware.Name; got != tc.p.Hardware {
				t.Errorf("engine hardware %q, want %q", got, tc.p.Hardware)
			}
		})
	}
	if got := pool.Len(); got != 4 {
		t.Errorf("pool holds %d engines, want 4", got)
	}
}

func TestEnginesGetErrors(t *testing.T) {
	pool := testPool(t)
	tests := []struct {
		name string
		p    Profile
		want string
	}{
		{"unknown GPU", Profile{Hardware: "tpu", Model: "llama-3.1-8b"}, "h100-sxm"},
		{"unknown model", Profile{Hardware: "h100-sxm", Model: "gpt-9"}, "llama-3.1-8b"},
		{"does not fit", Profile{Hardware: "l4", Model: "llama-3.1-70b"}, "fit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pool.Get(tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Get error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if pool.Len() != 0 {
		t.Errorf("failed profiles left %d engines in the pool", pool.Len())
	}
}

func TestEnginesConcurrentGet(t *testing.T) {
	pool := testPool(t)
	p := Profile{Hardware: "a100-80g", Model: "llama-3.2-3b"}
	const n = 16
	got := make([]*live.Engine, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			le, err := pool.Get(p)
			if err != nil {
				t.Error(err)
			}
			got[i] = le
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("goroutine %d got a different engine", i)
		}
	}
	if pool.Len() != 1 {
		t.Errorf("pool holds %d engines, want 1", pool.Len())
	}
}

func TestEnginesCloseClosesAll(t *testing.T) {
	pool := testPool(t)
	var engines []*live.Engine
	for _, hw := range []string{"h100-sxm", "l4"} {
		le, err := pool.Get(Profile{Hardware: hw, Model: "llama-3.2-1b"})
		if err != nil {
			t.Fatal(err)
		}
		engines = append(engines, le)
	}
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pool.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	req := engine.Request{ID: "r", PromptTokens: []int{1, 2, 3}, OutputTokens: []int{4}}
	for i, le := range engines {
		if _, err := le.Submit(context.Background(), req); !errors.Is(err, live.ErrClosed) {
			t.Errorf("engine %d: Submit after Close = %v, want ErrClosed", i, err)
		}
	}
	if _, err := pool.Get(Profile{Hardware: "h100-sxm", Model: "llama-3.2-1b"}); !errors.Is(err, ErrEnginesClosed) {
		t.Errorf("Get after Close = %v, want ErrEnginesClosed", err)
	}
}

func TestEnginesTune(t *testing.T) {
	pool := NewEngines(EnginesConfig{Tune: func(c *engine.Config) { c.NumGPUBlocks = 64 }})
	defer pool.Close()
	le, err := pool.Get(Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := le.Footprint().NumBlocks; got != 64 {
		t.Errorf("tuned engine has %d blocks, want 64", got)
	}
}

func TestEnginesClock(t *testing.T) {
	jump := clocktest.NewJump(time.Unix(0, 0))
	tests := []struct {
		name string
		cfg  clock.Clock
		want clock.Clock
	}{
		{"none is the wall clock", nil, clock.Wall{}},
		{"a given clock is kept", jump, jump},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pool := NewEngines(EnginesConfig{Clock: tc.cfg})
			defer pool.Close()
			if got := pool.Clock(); got != tc.want {
				t.Errorf("Clock() = %v, want %v", got, tc.want)
			}
		})
	}
}
