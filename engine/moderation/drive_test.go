package moderation

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// lateClock is a synctest bubble's clock whose waits end late, as on a
// starved host.
type lateClock struct{ late time.Duration }

func (lateClock) Now() time.Time { return time.Now() }

func (c lateClock) After(d time.Duration) <-chan time.Time { return time.After(d + c.late) }

// timedSource stamps token i at (i+1)·gap on the modelled timeline and
// hands it over late by lateness on the bubble's clock.
func timedSource(pieces []string, gap, lateness time.Duration) GenerateTimed {
	return func(ctx context.Context) (<-chan Token, error) {
		out := make(chan Token)
		go func() {
			defer close(out)
			start := time.Now()
			for i, p := range pieces {
				at := time.Duration(i+1) * gap
				time.Sleep(time.Until(start.Add(at + lateness)))
				select {
				case out <- Token{Text: p, At: at}:
				case <-ctx.Done():
					return
				}
			}
		}()
		return out, nil
	}
}

// TestRunTimedKeepsModelledTimes: on the modelled timeline (10 ms a token,
// 50 ms a check) every event has the same modelled time, kind and
// coverage whether the host is calm or every wait and token runs late,
// and the first word comes when the first window's check ends.
func TestRunTimedKeepsModelledTimes(t *testing.T) {
	text := "Maria asked about a double charge. Her e-mail is maria.lopez@example.com and she wants a refund. The second charge was reversed on Tuesday and the refund is on its way."
	pieces := split(text)
	ms := time.Millisecond
	tests := []struct {
		name      string
		filter    FilterConfig
		firstWord time.Duration // -1: nothing reaches the reader
		end       time.Duration // 0: not checked
		generated int           // tokens counted; -1: fewer than all (an abort)
	}{
		{"stream then moderate", FilterConfig{Policy: StreamThenModerate, Window: 5}, 10 * ms, 0, len(pieces)},
		// The whole answer is checked once it is written, and blocked.
		{"moderate then send", FilterConfig{Policy: ModerateThenSend}, -1, time.Duration(len(pieces))*10*ms + 50*ms, len(pieces)},
		// An overlap longer than the window: the first check (5 tokens)
		// holds all it read, the second (10 tokens, once the first is back)
		// releases 10 − 8.
		{"window", FilterConfig{Policy: BufferedWindow, Window: 5, Overlap: 8}, 100*ms + 50*ms, 0, len(pieces)},
		{"abort", FilterConfig{Policy: AbortMidStream, Window: 5, Overlap: 8}, 100*ms + 50*ms, 0, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(late time.Duration) (trace []string, firstWord time.Duration, sum Summary) {
				synctest.Test(t, func(t *testing.T) {
					c, err := NewChecker(Config{Clock: lateClock{late}, Latency: 50 * ms})
					if err != nil {
						t.Fatal(err)
					}
					firstWord = -1
					st := Stage{Checker: c, Filter: tc.filter}
					sum, err = st.RunTimed(t.Context(), "hi", timedSource(pieces, 10*ms, late), func(ev Event) {
						trace = append(trace, fmt.Sprintf("%s %v [%d,%d)", ev.Kind, ev.Model, ev.From, ev.To))
						if firstWord < 0 && ev.Kind == EvDelivered && ev.Text != "" {
							firstWord = ev.Model
						}
					})
					if err != nil {
						t.Fatal(err)
					}
				})
				return trace, firstWord, sum
			}
			calm, calmWord, calmSum := run(0)
			starved, starvedWord, starvedSum := run(40 * ms)
			if !slices.Equal(calm, starved) {
				t.Errorf("modelled events differ on a starved host:\ncalm    %v\nstarved %v", calm, starved)
			}
			if calmWord != tc.firstWord || starvedWord != tc.firstWord {
				t.Errorf("first word at %v calm, %v starved; want %v", calmWord, starvedWord, tc.firstWord)
			}
			if tc.end > 0 && calmSum.End != tc.end {
				t.Errorf("ended at %v, want %v", calmSum.End, tc.end)
			}
			if calmSum != starvedSum {
				t.Errorf("summary %+v calm, %+v starved", calmSum, starvedSum)
			}
			if tc.generated >= 0 && calmSum.Generated != tc.generated {
				t.Errorf("%d tokens generated, want %d", calmSum.Generated, tc.generated)
			}
			if tc.generated < 0 && calmSum.Generated >= len(pieces) {
				t.Errorf("%d tokens generated after an abort, want fewer than %d", calmSum.Generated, len(pieces))
			}
		})
	}
}
