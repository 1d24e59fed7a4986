package clock

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

func TestOrDefaultsToWall(t *testing.T) {
	if _, ok := Or(nil).(Wall); !ok {
		t.Errorf("Or(nil) = %T, want Wall", Or(nil))
	}
	late := lateClock{oversleep: time.Second}
	if Or(late) != late {
		t.Error("Or replaced a given clock")
	}
}

func TestSleep(t *testing.T) {
	stop := errors.New("stopped by the test")
	tests := []struct {
		name     string
		d        time.Duration
		cancelAt time.Duration // 0: never
		want     error
		took     time.Duration
	}{
		{"waits the whole duration", 250 * time.Millisecond, 0, nil, 250 * time.Millisecond},
		{"zero returns at once", 0, 0, nil, 0},
		{"negative returns at once", -time.Second, 0, nil, 0},
		{"cancel ends the wait with the cause", time.Second, 300 * time.Millisecond, stop, 300 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				if tc.cancelAt > 0 {
					time.AfterFunc(tc.cancelAt, func() { cancel(stop) })
				}
				start := time.Now()
				err := Sleep(ctx, Wall{}, tc.d)
				if !errors.Is(err, tc.want) {
					t.Errorf("Sleep = %v, want %v", err, tc.want)
				}
				if took := time.Since(start); took != tc.took {
					t.Errorf("slept %v, want %v", took, tc.took)
				}
			})
		})
	}
}

func TestSleepOnEndedContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, Wall{}, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep on an ended context = %v, want context.Canceled", err)
	}
}

func TestTickerTicksEveryPeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		tk := NewTicker(Wall{}, 100*time.Millisecond)
		defer tk.Stop()
		for i := 1; i <= 5; i++ {
			at := <-tk.C
			if got, want := at.Sub(start), time.Duration(i)*100*time.Millisecond; got != want {
				t.Errorf("tick %d at %v, want %v", i, got, want)
			}
		}
	})
}

func TestTickerDropsTicksForASlowReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		tk := NewTicker(Wall{}, 10*time.Millisecond)
		defer tk.Stop()
		time.Sleep(55 * time.Millisecond) // five ticks fall due; one is kept
		synctest.Wait()
		if got := (<-tk.C).Sub(start); got != 10*time.Millisecond {
			t.Errorf("kept tick from %v, want the first, at 10ms", got)
		}
		if got := (<-tk.C).Sub(start); got != 60*time.Millisecond {
			t.Errorf("next tick at %v, want 60ms", got)
		}
	})
}

func TestTickerKeepsAbsoluteTimesOnALateClock(t *testing.T) {
	// Every wait oversleeps by 3 ms; ticks still fall due on the 10 ms grid
	// (each lands 3 ms late), instead of drifting by 3 ms per tick.
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		tk := NewTicker(lateClock{oversleep: 3 * time.Millisecond}, 10*time.Millisecond)
		defer tk.Stop()
		want := []time.Duration{13 * time.Millisecond, 23 * time.Millisecond, 33 * time.Millisecond, 43 * time.Millisecond}
		for i, w := range want {
			if got := (<-tk.C).Sub(start); got != w {
				t.Errorf("tick %d at %v, want %v", i+1, got, w)
			}
		}
	})
}

func TestTickerOff(t *testing.T) {
	for _, period := range []time.Duration{0, -time.Second} {
		tk := NewTicker(Wall{}, period)
		if tk.C != nil {
			t.Errorf("period %v: ticker has a channel, want none", period)
		}
		tk.Stop()
		tk.Stop()
	}
}

func TestTickerStopEndsTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := NewTicker(Wall{}, time.Millisecond)
		<-tk.C
		tk.Stop()
		tk.Stop() // a second Stop is harmless
		select {
		case <-tk.C: // at most the one tick sent before Stop
		default:
		}
		time.Sleep(10 * time.Millisecond)
		select {
		case at := <-tk.C:
			t.Errorf("tick at %v after Stop", at)
		default:
		}
	})
}

// lateClock is the wall clock oversleeping every wait by a fixed amount,
// like a loaded machine.
type lateClock struct {
	Wall
	oversleep time.Duration
}

func (c lateClock) After(d time.Duration) <-chan time.Time { return time.After(d + c.oversleep) }
