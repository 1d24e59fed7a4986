package pipeline

import (
	"context"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// hostedFirstToken streams one question through p and returns, on the
// bubble's clock, when the first chunk and the last reached the caller
// and how many tokens came.
func hostedFirstToken(t *testing.T, p Provider, answer int) (first, last time.Duration, tokens int) {
	t.Helper()
	start := time.Now()
	s, err := p.Stream(context.Background(), ProviderRequest{ID: "me", ExactTokens: answer,
		Messages: []textmodel.Message{{Role: "user", Content: "Where is my order?"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for {
		ev, err := s.Recv()
		if err == io.EOF {
			return first, last, tokens
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Tokens > 0 {
			if tokens == 0 {
				first = time.Since(start)
			}
			last = time.Since(start)
			tokens += ev.Tokens
		}
	}
}

// Each cause adds where it physically happens: the network adds its round
// trips to the first token and nothing to the writing speed; other
// tenants slow every decode step; a slower GPU slows both.
func TestHostingCauses(t *testing.T) {
	const answer = 200
	rtt := 100 * time.Millisecond
	tests := []struct {
		name           string
		h              Hosting
		firstMin       time.Duration // at least this much later than idle
		firstMax       time.Duration
		slowerDecodeBy float64 // per-token time at least this many times idle's
	}{
		{"kept-alive connection: one round trip", Hosting{RTT: rtt}, rtt, rtt + 2*time.Millisecond, 1},
		{"fresh connection: three round trips", Hosting{RTT: rtt, FreshConnection: true}, 3 * rtt, 3*rtt + 2*time.Millisecond, 1},
		{"other tenants slow each step", Hosting{Tenants: TenantLoad{Rate: 9, Seed: 4}}, 0, 300 * time.Millisecond, 1.2},
		{"an A100 is slower than an H100", Hosting{Hardware: "a100-80g"}, time.Millisecond, 200 * time.Millisecond, 1.4},
	}
	var idleFirst, idlePerToken time.Duration
	synctest.Test(t, func(t *testing.T) {
		he, err := StartHostedEngine(engine.DefaultConfig(), Hosting{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer he.Close()
		first, last, n := hostedFirstToken(t, NewEngineProvider(he.Engine), answer)
		idleFirst, idlePerToken = first, (last-first)/time.Duration(n-1)
	})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				he, err := StartHostedEngine(engine.DefaultConfig(), tc.h, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer he.Close()
				if err := he.WarmUp(context.Background(), 0); err != nil {
					t.Fatal(err)
				}
				first, last, n := hostedFirstToken(t, tc.h.Behind(NewEngineProvider(he.Engine), nil), answer)
				if n != answer {
					t.Fatalf("%d tokens, want %d", n, answer)
				}
				added := first - idleFirst
				perToken := (last - first) / time.Duration(n-1)
				if added < tc.firstMin || added > tc.firstMax {
					t.Errorf("first token %v, idle %v: added %v, want %v..%v", first, idleFirst, added, tc.firstMin, tc.firstMax)
				}
				if ratio := float64(perToken) / float64(idlePerToken); ratio < tc.slowerDecodeBy || (tc.slowerDecodeBy == 1 && ratio > 1.001) {
					t.Errorf("per token %v vs idle %v (×%.2f), want ×%.2f", perToken, idlePerToken, ratio, tc.slowerDecodeBy)
				}
				if tc.h.Tenants.On() && he.TenantsSent() == 0 {
					t.Error("no tenant request was sent")
				}
			})
		})
	}
}

// Stopping the load leaves no goroutine behind, even with requests in
// flight and a cap that drops arrivals. The load runs on the host's clock
// while a caller's request is on the engine (a long one here).
func TestTenantsStopCleanly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := clocktest.BubbleGoroutines()
		he, err := StartHostedEngine(engine.DefaultConfig(), Hosting{Tenants: TenantLoad{Rate: 40, Seed: 1, MaxInFlight: 5}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		events, err := he.Engine.Submit(t.Context(), engine.Request{ID: "caller", PromptTokens: make([]int, 100), MaxTokens: 2000, IgnoreEOS: true})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for range events {
			}
		}()
		time.Sleep(3 * time.Second)
		if bg := he.Engine.Background(); bg.InFlight > 5 || bg.Dropped == 0 {
			t.Errorf("in flight %d (cap 5), dropped %d: want the cap to hold", bg.InFlight, bg.Dropped)
		}
		if err := he.Close(); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if after := clocktest.BubbleGoroutines(); after > before {
			t.Errorf("%d goroutines after Close, %d before", after, before)
		}
	})
}

// The virtual-clock arrivals are the live load's: same seed, same
// requests; a rate gives about that many per second.
func TestTenantRequests(t *testing.T) {
	load := TenantLoad{Rate: 8, Seed: 3}
	a, b := load.Requests(60*time.Second), load.Requests(60*time.Second)
	if len(a) != len(b) || len(a) < 400 || len(a) > 560 {
		t.Fatalf("%d and %d arrivals in 60 s at 8/s", len(a), len(b))
	}
	for i := range a {
		if a[i].Arrival != b[i].Arrival || len(a[i].PromptTokens) != len(b[i].PromptTokens) {
			t.Fatalf("request %d differs between two draws", i)
		}
	}
	if (TenantLoad{}).Requests(time.Minute) != nil {
		t.Error("no load drew requests")
	}
}

func TestHostingValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Hosting
		ok   bool
	}{
		{"zero", Hosting{}, true},
		{"seed preset", Hosting{RTT: 190 * time.Millisecond, FreshConnection: true, Tenants: TenantLoad{Rate: 9}}, true},
		{"negative rtt", Hosting{RTT: -1}, false},
		{"rtt too long", Hosting{RTT: 3 * time.Second}, false},
		{"rate too high", Hosting{Tenants: TenantLoad{Rate: 51}}, false},
		{"unknown gpu", Hosting{Hardware: "tpu"}, false},
	} {
		if err := tc.h.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// Calls sent together cross the network together: Stream returns at once
// and each call's first Recv waits for its own upload. A call closed or
// cancelled on its way out never reaches the provider's stream.
func TestNetworkCallsCrossTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		he, err := StartHostedEngine(engine.DefaultConfig(), Hosting{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer he.Close()
		net := Hosting{RTT: 100 * time.Millisecond, FreshConnection: true}.Behind(NewEngineProvider(he.Engine), nil)
		req := ProviderRequest{ID: "a", ExactTokens: 5, Messages: []textmodel.Message{{Role: "user", Content: "Where is my order?"}}}
		start := time.Now()
		a, err := net.Stream(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := net.Stream(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("Stream took %v, want it to return at once", d)
		}
		// Read b only once a is done: b went out with a all the same.
		var firsts []time.Duration
		for _, s := range []Stream{a, b} {
			if _, err := s.Recv(); err != nil {
				t.Fatal(err)
			}
			firsts = append(firsts, time.Since(start))
			s.Close()
		}
		if firsts[1]-firsts[0] > 10*time.Millisecond {
			t.Errorf("first tokens at %v: want both calls to have crossed at once", firsts)
		}
		closed, _ := net.Stream(context.Background(), req)
		closed.Close()
		if _, err := closed.Recv(); err == nil {
			t.Error("Recv after Close answered")
		}
		ctx, cancel := context.WithCancel(context.Background())
		going, _ := net.Stream(ctx, req)
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := going.Recv(); err == nil {
			t.Error("a call cancelled during its upload still answered")
		}
	})
}
