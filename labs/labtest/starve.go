package labtest

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// BusyNote and SharedNote are the openings of the notes a lab's final
// status carries when the host delivered tokens late and when other
// requests shared the GPU (see labs.Delivery and labs.SharingNote).
const (
	BusyNote   = "This server was busy"
	SharedNote = "shared the GPU with yours"
)

// Busy says how a run in RunBusy is disturbed.
type Busy struct {
	// Consume is how long the consumer of the frames takes over each one,
	// as a handler on a loaded host would: the lab reads its events late.
	Consume time.Duration
	// Beside, when set, runs inside the bubble on the run's pool just
	// before the run starts, e.g. to submit other learners' requests with
	// Competitor.
	Beside func(ctx context.Context, pool *labs.Engines)
	// Late makes every wait on the pool's clock end this much late, as
	// on a host whose cores are taken: the pipeline's stages, the
	// network's legs and the engine's runner are all scheduled late.
	Late time.Duration
}

// lateClock is the wall clock (a synctest bubble's) whose waits end late
// by oversleep, as on a starved host.
type lateClock struct{ oversleep time.Duration }

func (lateClock) Now() time.Time { return time.Now() }

func (c lateClock) After(d time.Duration) <-chan time.Time { return time.After(d + c.oversleep) }

// RunBusy runs a lab once in a synctest bubble, as RunInBubble does,
// disturbed as busy says, and returns its final frame.
func RunBusy(t *testing.T, newLab func(*labs.Engines) labs.Lab, vals labs.Values, busy Busy) labs.Frame {
	t.Helper()
	var final labs.Frame
	synctest.Test(t, func(t *testing.T) {
		var cfg labs.EnginesConfig
		if busy.Late > 0 {
			cfg.Clock = lateClock{oversleep: busy.Late}
		}
		pool := labs.NewEngines(cfg)
		defer pool.Close()
		l := newLab(pool)
		r, errs := l.Decode(vals)
		if len(errs) > 0 {
			t.Fatalf("decode: %v", errs)
		}
		if busy.Beside != nil {
			busy.Beside(t.Context(), pool)
		}
		err := r.Start(t.Context(), func(f labs.Frame) {
			final = f
			time.Sleep(busy.Consume)
		})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	})
	if !final.Final {
		t.Fatal("the run ended without a final frame")
	}
	return final
}

// Competitor submits another learner's request to p's engine in pool
// (prompt and answer lengths in tokens) and drains it in the background
// until it ends or the pool closes. It fails t when the engine refuses.
func Competitor(t testing.TB, ctx context.Context, pool *labs.Engines, p labs.Profile, id string, prompt, answer int) {
	t.Helper()
	le, err := pool.Get(p)
	if err != nil {
		t.Fatal(err)
	}
	req := engine.Request{ID: id, PromptTokens: make([]int, prompt), OutputTokens: make([]int, answer), MaxTokens: answer}
	for i := range req.OutputTokens {
		req.OutputTokens[i] = 1000 + i
	}
	for i := range req.PromptTokens {
		req.PromptTokens[i] = 7 + i%5000 // no prefix in common with a lab's prompts
	}
	events, err := le.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range events {
		}
	}()
}

// CheckGPUFigures fails t unless every time and count figure of got (units
// ms, s, tokens, tok/s) equals want's: a starved handler must not move
// what the GPU did.
func CheckGPUFigures(t testing.TB, want, got labs.Frame) {
	t.Helper()
	gotStats := StatMap(t, got)
	n := 0
	for _, s := range want.Stats {
		switch s.Unit {
		case "ms", "s", "tokens", "tok/s":
		default:
			continue
		}
		n++
		if g, ok := gotStats[s.Key]; !ok || !Near(g, s.Value) {
			t.Errorf("%s: %v %s with a starved handler, %v %s without", s.Key, g, s.Unit, s.Value, s.Unit)
		}
	}
	if n == 0 {
		t.Fatal("no time or count figure to compare")
	}
}

// HasNote reports whether f's status carries note.
func HasNote(f labs.Frame, note string) bool { return strings.Contains(f.Status, note) }
