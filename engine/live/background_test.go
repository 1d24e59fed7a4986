package live

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// bubbleLateClock is a synctest bubble's clock whose waits all end late
// by oversleep, and wait number stallAt by stall more, as on a host whose
// cores are taken.
type bubbleLateClock struct {
	oversleep, stall time.Duration
	stallAt          int
	mu               sync.Mutex
	waits            int
}

func (*bubbleLateClock) Now() time.Time { return time.Now() }

func (c *bubbleLateClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits++
	if c.waits == c.stallAt {
		d += c.stall
	}
	return time.After(d + c.oversleep)
}

// chats is background traffic: a chat every gap of GPU time for n chats.
func chats(n int, gap time.Duration) Background {
	i := 0
	return Background{Next: func() (engine.Request, bool) {
		if i == n {
			return engine.Request{}, false
		}
		i++
		r := request(fmt.Sprintf("bg-%d", i), 600, 120)
		r.Arrival = time.Duration(i) * gap
		return r, true
	}}
}

// foreground is what one request beside the background traffic saw.
type foreground struct {
	gpu     []time.Duration // each token's and the end's modelled time
	sharing Sharing
}

// follow reads a request's events to the end.
func follow(ch <-chan Event) foreground {
	var got foreground
	for ev := range ch {
		got.gpu = append(got.gpu, ev.GPU)
		if ev.Done {
			got.sharing = ev.Sharing
		}
	}
	return got
}

// runBeside runs one request from engine time 0 beside background
// traffic, on clk, and returns what it saw and the traffic's counts.
func runBeside(t *testing.T, clk *bubbleLateClock, bg Background) (foreground, BackgroundCounts) {
	t.Helper()
	var got foreground
	var counts BackgroundCounts
	synctest.Test(t, func(t *testing.T) {
		e, err := New(Config{Engine: engine.DefaultConfig(), Clock: clk, Background: bg})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		ch, err := e.Submit(context.Background(), request("mine", 800, 400))
		if err != nil {
			t.Fatal(err)
		}
		got, counts = follow(ch), e.Background()
	})
	return got, counts
}

// Background traffic arrives on the engine's modelled clock, so a host
// whose every wait ends late, or that stalls once for longer than MaxLag,
// moves neither how many requests shared the GPU with a request beside it
// nor any of that request's modelled times.
func TestBackgroundArrivesOnTheEnginesClock(t *testing.T) {
	calm, counts := runBeside(t, &bubbleLateClock{}, chats(60, 50*time.Millisecond))
	if calm.sharing.Others < 20 || counts.Sent != 60 || counts.Dropped != 0 {
		t.Fatalf("calm run shared with %d others, traffic %+v: want the chats beside it", calm.sharing.Others, counts)
	}
	tests := []struct {
		name string
		clk  *bubbleLateClock
	}{
		{"every wait 150 ms late", &bubbleLateClock{oversleep: 150 * time.Millisecond}},
		{"one 2 s stall", &bubbleLateClock{stallAt: 30, stall: 2 * time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := runBeside(t, tc.clk, chats(60, 50*time.Millisecond))
			if got.sharing != calm.sharing || !slices.Equal(got.gpu, calm.gpu) {
				t.Errorf("sharing %+v, end %v; calm %+v, end %v", got.sharing, got.gpu[len(got.gpu)-1], calm.sharing, calm.gpu[len(calm.gpu)-1])
			}
		})
	}
}

// The cap turns arrivals away while that many background requests run.
func TestBackgroundCap(t *testing.T) {
	bg := chats(60, 5*time.Millisecond)
	bg.MaxInFlight = 8
	got, counts := runBeside(t, &bubbleLateClock{}, bg)
	if counts.Dropped == 0 || counts.Sent+counts.Dropped != 60 || got.sharing.MaxBatch > 9 {
		t.Errorf("traffic %+v, busiest batch %d: want arrivals dropped over the cap of 8", counts, got.sharing.MaxBatch)
	}
}

// sentLate submits one request sent at modelled moment sent (the bubble's
// time since the engine started) but handed over late, on an engine with
// bg traffic (or none) anchored at anchor (negative: never), and returns
// what it saw.
func sentLate(t *testing.T, bg Background, anchor, sent, late time.Duration) foreground {
	t.Helper()
	var got foreground
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		e, err := New(Config{Engine: engine.DefaultConfig(), Background: bg})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		if anchor >= 0 {
			e.Anchor(start, anchor) // the caller's timeline starts at engine time anchor
		}
		time.Sleep(sent + late)
		ch, err := e.Submit(WithSentAt(context.Background(), start.Add(sent)), request("mine", 800, 200))
		if err != nil {
			t.Fatal(err)
		}
		got = follow(ch)
	})
	return got
}

// A request that says when it was sent meets background traffic where
// that moment puts it, however late it was handed over; an anchor moves
// the caller's timeline against the traffic's; an engine without
// background traffic takes a request when it comes.
func TestSentAtMeetsTheTrafficOfItsMoment(t *testing.T) {
	traffic := func() Background { return chats(200, 40*time.Millisecond) }
	onTime := sentLate(t, traffic(), -1, 3*time.Second, 0)
	anchored := sentLate(t, traffic(), time.Second, 2*time.Second, 0) // sent at engine time 3 s too
	elsewhere := sentLate(t, traffic(), -1, 2*time.Second, 0)
	if onTime.sharing.Others < 20 || onTime.sharing == elsewhere.sharing {
		t.Fatalf("sent at 3 s shared %+v, at 2 s %+v: want busy traffic that differs by moment", onTime.sharing, elsewhere.sharing)
	}
	tests := []struct {
		name string
		got  foreground
		want foreground
	}{
		{"handed over 400 ms late", sentLate(t, traffic(), -1, 3*time.Second, 400*time.Millisecond), onTime},
		{"anchored, handed over 400 ms late", sentLate(t, traffic(), time.Second, 2*time.Second, 400*time.Millisecond), anchored},
		{"anchored one second on", anchored, onTime},
		{"no traffic, handed over late", sentLate(t, Background{}, -1, time.Second, 400*time.Millisecond), sentLate(t, Background{}, -1, time.Second, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got.sharing != tc.want.sharing || !slices.Equal(tc.got.gpu, tc.want.gpu) {
				t.Errorf("sharing %+v, end %v; want %+v, end %v", tc.got.sharing, tc.got.gpu[len(tc.got.gpu)-1], tc.want.sharing, tc.want.gpu[len(tc.want.gpu)-1])
			}
		})
	}
}
