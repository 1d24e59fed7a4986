package web

import (
	"context"
	"errors"
	"testing"
)

// Work under one key is cancelled together and only that key's; removing
// the last run of a key forgets the key.
func TestRunningWork(t *testing.T) {
	r := newRunningWork(nil)
	stop := errors.New("stopped")
	var ctxs []context.Context
	var removes []func()
	for _, key := range []string{"alice/streaming", "alice/streaming", "alice/batching", "bob/streaming"} {
		ctx, cancel := context.WithCancelCause(context.Background())
		before, remove := r.add(key, cancel)
		if key == "alice/streaming" && len(ctxs) == 1 && before != 1 {
			t.Errorf("second alice/streaming run: %d before it, want 1", before)
		}
		ctxs, removes = append(ctxs, ctx), append(removes, remove)
	}
	if n := r.cancel("alice/streaming", stop); n != 2 {
		t.Errorf("cancel stopped %d runs, want alice's two streaming runs", n)
	}
	for i, want := range []bool{true, true, false, false} {
		if got := errors.Is(context.Cause(ctxs[i]), stop); got != want {
			t.Errorf("run %d cancelled: %v, want %v", i, got, want)
		}
	}
	if n := r.cancel("carol/streaming", stop); n != 0 {
		t.Errorf("cancelling a key with no runs stopped %d", n)
	}
	for _, remove := range removes {
		remove()
	}
	if n := r.size(); n != 0 {
		t.Errorf("%d keys left after every run was removed", n)
	}
}

// A Stop that names a run before it registers waits for it: the run is
// cancelled as it starts, and only that run.
func TestStopBeforeTheRunArrives(t *testing.T) {
	r := newRunningWork(nil)
	stop := errors.New("stopped")
	if n := r.cancelOrRemember("alice/streaming/tok1", stop); n != 0 {
		t.Fatalf("stopped %d runs before any started", n)
	}
	other, cancelOther := context.WithCancelCause(context.Background())
	_, removeOther := r.add("alice/streaming/tok2", cancelOther)
	defer removeOther()
	named, cancelNamed := context.WithCancelCause(context.Background())
	_, removeNamed := r.add("alice/streaming/tok1", cancelNamed)
	defer removeNamed()
	if !errors.Is(context.Cause(named), stop) {
		t.Error("the run the early Stop named was not cancelled when it registered")
	}
	if other.Err() != nil {
		t.Error("an early Stop cancelled another run")
	}
	again, cancelAgain := context.WithCancelCause(context.Background())
	_, removeAgain := r.add("alice/streaming/tok1", cancelAgain)
	defer removeAgain()
	if again.Err() != nil {
		t.Error("an early Stop was used twice")
	}
	if n := r.cancelPrefix("alice/streaming/", stop); n != 3 {
		t.Errorf("a Stop without a token stopped %d runs, want all three of alice's streaming runs", n)
	}
}
