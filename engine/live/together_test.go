package live

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// TestSubmitTogetherSharesTheFirstStep: requests submitted together are
// prefilled in one step even when the runner gets to run between the
// calls, as it does on a busy host; submitted one by one they are not.
func TestSubmitTogetherSharesTheFirstStep(t *testing.T) {
	tests := []struct {
		name     string
		together bool
		same     bool // both first tokens at the same engine time
	}{
		{"together", true, true},
		{"one after the other, the runner scheduled between", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newTestEngine(t, nil)
				a, b := request("a", 2000, 3), request("b", 2000, 3)
				var chans []<-chan Event
				if tc.together {
					outs, err := e.SubmitTogether(context.Background(), a, b)
					if err != nil {
						t.Fatal(err)
					}
					chans = outs
				} else {
					ca, err := e.Submit(context.Background(), a)
					if err != nil {
						t.Fatal(err)
					}
					synctest.Wait() // the runner takes a alone and starts its step
					cb, err := e.Submit(context.Background(), b)
					if err != nil {
						t.Fatal(err)
					}
					chans = []<-chan Event{ca, cb}
				}
				var first [2]time.Duration
				for i, ch := range chans {
					for ev := range ch {
						if !ev.Done && ev.Index == 0 {
							first[i] = ev.Time
						}
					}
				}
				if got := first[0] == first[1]; got != tc.same || first[0] == 0 {
					t.Errorf("first tokens at %v and %v; same step = %v, want %v", first[0], first[1], got, tc.same)
				}
			})
		})
	}
}

// TestSubmitTogetherQueuesNothingOnABadRequest: one invalid or duplicate
// request refuses the whole set.
func TestSubmitTogetherQueuesNothingOnABadRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTestEngine(t, nil)
		long := request("long", 131000, 1)
		long.MaxTokens = 5000
		for _, set := range [][]string{{"x", "long"}, {"y", "y"}} {
			reqs := []engine.Request{}
			for _, id := range set {
				if id == "long" {
					reqs = append(reqs, long)
				} else {
					reqs = append(reqs, request(id, 10, 2))
				}
			}
			if _, err := e.SubmitTogether(context.Background(), reqs...); err == nil {
				t.Errorf("%v accepted", set)
			}
		}
		if _, err := e.Submit(context.Background(), request("x", 10, 2)); err != nil {
			t.Errorf("x was queued by the refused set: %v", err)
		}
	})
}

// TestSubmitTogetherRemoteCancelsTheSentOnARefusal: when the server
// refuses a later request of the set, the ones already sent are cancelled
// (their connections closed), not left generating with no reader; when all
// are taken, their streams live on with the caller's context.
func TestSubmitTogetherRemoteCancelsTheSentOnARefusal(t *testing.T) {
	for _, tc := range []struct {
		name          string
		refuse        string // the id the server refuses ("" none)
		wantCancelled bool   // the first request's context ends at once
	}{
		{"second refused", "b", true},
		{"all taken", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent []context.Context
			remote := func(ctx context.Context, req engine.Request, _ time.Time) (<-chan Event, error) {
				if req.ID == tc.refuse {
					return nil, errors.New("the server refused it")
				}
				sent = append(sent, ctx)
				return make(chan Event), nil
			}
			e, err := New(Config{Engine: engine.DefaultConfig(), Remote: remote})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			caller, stop := context.WithCancel(context.Background())
			_, err = e.SubmitTogether(caller, request("a", 10, 2), request("b", 10, 2))
			if (err != nil) != (tc.refuse != "") {
				t.Fatalf("error %v, want one only when a request is refused", err)
			}
			if got := sent[0].Err() != nil; got != tc.wantCancelled {
				t.Errorf("first request cancelled = %v, want %v", got, tc.wantCancelled)
			}
			stop()
			if sent[0].Err() == nil {
				t.Error("the caller's context ended but the first request's did not")
			}
		})
	}
}
