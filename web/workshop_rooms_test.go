package web

import (
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/store"
)

// TestTopicNeverBlocksAndCoalesces: a subscriber that never reads holds
// up nobody, and any number of changes while it is busy reach it as one.
func TestTopicNeverBlocksAndCoalesces(t *testing.T) {
	var tp topic
	stuck, _ := tp.subscribe("stuck")
	busy, _ := tp.subscribe("busy")
	other, unsubscribe := tp.subscribe("other")
	for range 10000 {
		tp.publish("") // would deadlock here if a full channel blocked
	}
	tp.publish("busy")
	for name, ch := range map[string]<-chan struct{}{"stuck": stuck, "busy": busy, "other": other} {
		if n := drain(ch); n != 1 {
			t.Errorf("%s got %d signals for 10001 changes, want 1", name, n)
		}
	}
	tp.publish("busy")
	if drain(busy) != 1 || drain(stuck) != 0 {
		t.Error("a keyed publish must reach only that key")
	}
	unsubscribe()
	tp.publish("")
	if drain(other) != 0 {
		t.Error("an unsubscribed channel still got a signal")
	}
	if on := tp.online(); on["stuck"] != 1 || on["other"] != 0 {
		t.Errorf("online = %v", on)
	}
}

func drain(ch <-chan struct{}) int {
	n := 0
	for {
		select {
		case <-ch:
			n++
		default:
			return n
		}
	}
}

func TestCountedGuessHonoursTheLock(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	guess := &store.Prediction{Value: 250, Unit: "ms"}
	run := func(at time.Time, p *store.Prediction) store.WorkshopRun {
		return store.WorkshopRun{Run: store.Run{CreatedAt: at, Summary: store.Summary{Prediction: p}}}
	}
	tests := []struct {
		name   string
		locked time.Time
		run    store.WorkshopRun
		want   bool
	}{
		{"open", time.Time{}, run(t0, guess), true},
		{"no guess", time.Time{}, run(t0, nil), false},
		{"saved before the lock", t0.Add(time.Minute), run(t0, guess), true},
		{"saved at the lock", t0, run(t0, guess), false},
		{"saved after the lock", t0, run(t0.Add(time.Second), guess), false},
	}
	for _, tc := range tests {
		ws := store.Workshop{LockedAt: tc.locked}
		if v, ok := countedGuess(ws, tc.run); ok != tc.want || (ok && v != 250) {
			t.Errorf("%s: %v, %v; want counted=%v", tc.name, v, ok, tc.want)
		}
	}
}

func TestGuessHistogramCoversGuessesAndMarks(t *testing.T) {
	c := guessHistogram([]float64{120, 180, 900}, "ms", []labs.Mark{{Label: "measured p50", At: 400}, {Label: "measured p95", At: 1300}})
	h := c.Hist
	total := 0
	for _, n := range h.Counts {
		total += n
	}
	end := h.Start + float64(len(h.Counts))*h.BinWidth
	if total != 3 || h.Start > 120 || end < 1300 || h.BinWidth != 200 {
		t.Errorf("histogram start %v width %v bins %v: want the 3 guesses in 200 ms bins reaching past 1300", h.Start, h.BinWidth, h.Counts)
	}
}
