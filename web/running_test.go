package web

import (
	"context"
	"errors"
	"testing"
)

// Work under one key is cancelled together and only that key's; removing
// the last run of a key forgets the key.
func TestRunningWork(t *testing.T) {
	r := newRunningWork()
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
