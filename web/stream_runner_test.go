package web

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/pipeline"
)

// tick publishes 1..n, one every step of (virtual) time.
func tick(n int, step time.Duration) func(context.Context, func(int)) error {
	return func(_ context.Context, publish func(int)) error {
		for i := 1; i <= n; i++ {
			time.Sleep(step)
			publish(i)
		}
		return nil
	}
}

var errTestTooLong = errors.New("test run took too long")

// TestStreamRunner runs the runner inside a synctest bubble, where time is
// virtual: every send time below is exact. Publish times are multiples of
// 3 ms and gaps end at 3 ms + k·50 ms, so no timer ever fires at the same
// instant as a publish and the order of events is fixed.
func TestStreamRunner(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name      string
		gap       time.Duration
		timeout   time.Duration // of the run's context; 0: none
		sendDelay time.Duration // a slow page
		sendFails bool          // a page that went away
		work      func(context.Context, func(int)) error

		wantSent      []int           // nil: only wantLast and wantMaxSent are checked
		wantAt        []time.Duration // when each send started
		wantLast      int
		wantMaxSent   int
		wantPublished int
		wantWorkEnd   time.Duration // when the work returned; 0: not checked
		wantErr       string
		wantSendErr   bool
		wantCause     error // nil: the context must not have ended
	}{
		{name: "first update at once, then the newest one per gap", gap: 50 * ms, work: tick(40, 3*ms),
			wantSent: []int{1, 17, 34, 40}, wantAt: []time.Duration{3 * ms, 53 * ms, 103 * ms, 120 * ms}, wantPublished: 40},
		{name: "a burst collapses to its last update", gap: 50 * ms, work: func(_ context.Context, publish func(int)) error {
			for i := 1; i <= 1000; i++ {
				publish(i)
			}
			return nil
		}, wantLast: 1000, wantMaxSent: 2, wantPublished: 1000},
		{name: "the final state goes out without waiting for the gap", gap: time.Hour, work: tick(5, 3*ms),
			wantSent: []int{1, 5}, wantAt: []time.Duration{3 * ms, 15 * ms}, wantPublished: 5},
		{name: "no gap sends every update", gap: 0, work: tick(5, 3*ms),
			wantSent: []int{1, 2, 3, 4, 5}, wantAt: []time.Duration{3 * ms, 6 * ms, 9 * ms, 12 * ms, 15 * ms}, wantPublished: 5},
		{name: "a slow page never holds the work back", gap: 50 * ms, sendDelay: 200 * ms, work: tick(40, 3*ms),
			wantSent: []int{1, 40}, wantAt: []time.Duration{3 * ms, 203 * ms}, wantPublished: 40, wantWorkEnd: 120 * ms},
		{name: "a cancelled run flushes what it had and says why", gap: time.Hour, timeout: 10 * ms,
			work: func(ctx context.Context, publish func(int)) error {
				time.Sleep(3 * ms)
				publish(1)
				<-ctx.Done()
				publish(2)
				return context.Cause(ctx)
			},
			wantSent: []int{1, 2}, wantAt: []time.Duration{3 * ms, 10 * ms}, wantPublished: 2,
			wantErr: errTestTooLong.Error(), wantCause: errTestTooLong},
		{name: "a failed send cancels the work", gap: 50 * ms, sendFails: true,
			work: func(ctx context.Context, publish func(int)) error {
				time.Sleep(3 * ms)
				publish(1)
				<-ctx.Done()
				return context.Cause(ctx)
			},
			wantSent: []int{}, wantPublished: 1, wantErr: errClientGone.Error(), wantSendErr: true},
		{name: "a panic becomes the error, after what was published", gap: time.Hour,
			work: func(_ context.Context, publish func(int)) error {
				time.Sleep(3 * ms)
				publish(1)
				time.Sleep(3 * ms)
				publish(2)
				panic("test bug")
			},
			wantSent: []int{1, 2}, wantAt: []time.Duration{3 * ms, 6 * ms}, wantPublished: 2, wantErr: "test work panicked: test bug"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				ctx := t.Context()
				if tc.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeoutCause(ctx, tc.timeout, errTestTooLong)
					defer cancel()
				}
				var workEnd time.Duration
				work := func(ctx context.Context, publish func(int)) error {
					defer func() { workEnd = time.Since(start) }()
					return tc.work(ctx, publish)
				}
				sent, at := []int{}, []time.Duration{}
				send := func(v int) error {
					if tc.sendFails {
						return errors.New("write: broken pipe")
					}
					sent, at = append(sent, v), append(at, time.Since(start))
					time.Sleep(tc.sendDelay)
					return nil
				}
				r := streamRunner[int]{Name: "test work", Clock: clock.Wall{}, Gap: tc.gap}
				res := r.run(ctx, work, send)

				if tc.wantSent != nil && !slices.Equal(sent, tc.wantSent) {
					t.Errorf("sent %v, want %v", sent, tc.wantSent)
				}
				if tc.wantAt != nil && !slices.Equal(at, tc.wantAt) {
					t.Errorf("sent at %v, want %v", at, tc.wantAt)
				}
				if tc.wantSent == nil {
					if len(sent) == 0 || sent[len(sent)-1] != tc.wantLast || len(sent) > tc.wantMaxSent {
						t.Errorf("sent %v, want at most %d sends ending with %d", sent, tc.wantMaxSent, tc.wantLast)
					}
				}
				if res.Sent != len(sent) || (len(sent) > 0 && res.Last != sent[len(sent)-1]) {
					t.Errorf("result says %d sent, last %d; the page got %v", res.Sent, res.Last, sent)
				}
				if res.Published != tc.wantPublished {
					t.Errorf("published %d, want %d", res.Published, tc.wantPublished)
				}
				if tc.wantWorkEnd > 0 && workEnd != tc.wantWorkEnd {
					t.Errorf("the work returned at %v, want %v", workEnd, tc.wantWorkEnd)
				}
				if got := errText(res.Err); tc.wantErr == "" && got != "" || !strings.Contains(got, tc.wantErr) {
					t.Errorf("err = %q, want %q", got, tc.wantErr)
				}
				if (res.SendErr != nil) != tc.wantSendErr {
					t.Errorf("send err = %v, want one: %v", res.SendErr, tc.wantSendErr)
				}
				if res.Canceled != (tc.wantCause != nil) || !errors.Is(res.Cause, tc.wantCause) {
					t.Errorf("canceled %v with cause %v, want cause %v", res.Canceled, res.Cause, tc.wantCause)
				}
			})
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestStreamRunnerMerges checks that a Merge function sees every update
// the gap skipped: the pieces sent, joined, are all the pieces published,
// in order, however the burst was cut.
func TestStreamRunnerMerges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces [][]string // bursts published 3 ms apart
	}{
		{"one burst", [][]string{{"a", "b", "c"}}},
		{"bursts inside one gap", [][]string{{"a"}, {"b", "c"}, {"d"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var want, got []string
				work := func(_ context.Context, publish func([]string)) error {
					for _, burst := range tc.pieces {
						time.Sleep(3 * time.Millisecond)
						for _, p := range burst {
							want = append(want, p)
							publish([]string{p})
						}
					}
					return nil
				}
				r := streamRunner[[]string]{Name: "merge", Clock: clock.Wall{}, Gap: time.Hour,
					Merge: func(unsent, next []string) []string { return append(slices.Clip(unsent), next...) }}
				r.run(t.Context(), work, func(v []string) error {
					got = append(got, v...)
					return nil
				})
				if !slices.Equal(got, want) {
					t.Errorf("pieces sent %v, want %v", got, want)
				}
			})
		})
	}
}

// BenchmarkChatPublish measures what one token costs the chat's pipeline
// goroutine: folding the event into the turn and publishing the turn's
// state. The page's pace must never show up here.
func BenchmarkChatPublish(b *testing.B) {
	ev := pipeline.Event{Kind: pipeline.EventDelta, Text: " word", Tokens: 1, Tier: "small"}
	r := streamRunner[turnState]{Name: "bench", Clock: clock.Wall{}, Gap: 50 * time.Millisecond}
	var sends int
	b.ReportAllocs()
	r.run(context.Background(), func(_ context.Context, publish func(turnState)) error {
		var turn liveTurn
		for range b.N {
			publish(turn.observe(ev))
		}
		return nil
	}, func(turnState) error {
		sends++
		return nil
	})
	b.ReportMetric(float64(sends), "sends")
}
