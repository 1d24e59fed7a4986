//go:build unix

package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	loadStreams   = 1000 // streaming /v1 chat completions at once
	loadRuns      = 100  // lab runs at once, one per learner
	loadMaxTokens = 16   // per /v1 answer: the point is concurrency, not length

	// After the load the server must be back to its baseline within these.
	goroutineSlack = 5
	rssSlack       = 0.20
	settleLimit    = 30 * time.Second
)

// loadServeArgs raise the caps the load needs above their defaults (4
// runs per CPU in total, half of that per address): 100 lab runs at once,
// each learner from an address of its own. /v1's default cap (1024 in
// flight) already admits the 1,000 streams, and is passed explicitly so a
// lower default cannot turn this test into a test of the cap.
var loadServeArgs = []string{"--max-runs-total", "128", "--max-runs-per-addr", "2", "--api-max-concurrency", "1024"}

// TestLoadStreamsAndRunsReturnToBaseline builds the real binary and sends
// it 1,000 streaming /v1 chat completions and 100 lab runs at the same
// time, twice: a warm-up burst, then the measured one. Every request must
// finish cleanly and the engines must have observed every one of the
// measured burst. Afterwards goroutines must be back to what they were
// before any load (+5), and RSS within 20% of the baseline taken after
// the warm-up burst.
//
// RSS is judged against the warm baseline because the first burst pays
// one-time costs that are not leaks: the runtime's bookkeeping for a heap
// that grew fivefold, the store's connections, the text model's bounded
// cache. A leak grows with every burst; those do not. The cold figure
// (after one request on each surface) is logged beside it.
//
// Every figure is taken after SIGUSR1 (see watchMemorySignal): an idle Go
// server collects only every two minutes and keeps freed heap for reuse,
// so without it RSS stays near the peak for minutes whether or not
// anything leaked. The idle figure before the signal is logged too.
func TestLoadStreamsAndRunsReturnToBaseline(t *testing.T) {
	if os.Getenv("LATENCYLAB_E2E") != "1" {
		t.Skip("load test: set LATENCYLAB_E2E=1 to build the binary and send it 1,000 /v1 streams and 100 lab runs at once (go test ./cmd/latencylab -run Load -v)")
	}
	bin := buildBinary(t)
	srv := runBinary(t, bin, append([]string{"--db", filepath.Join(t.TempDir(), "load.db")}, loadServeArgs...), nil)
	defer srv.stop(t)
	met := newScraper(srv.url)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	api := &http.Client{Transport: &http.Transport{}}
	learners := make([]*loadLearner, loadRuns)
	for i := range learners {
		l, err := newLoadLearner(srv.url, i)
		if err != nil {
			t.Fatal(err)
		}
		learners[i] = l
	}
	closeIdle := func() {
		api.CloseIdleConnections()
		for _, l := range learners {
			l.closeIdle()
		}
	}
	if _, p := streamV1(ctx, api, srv.url, -1, loadMaxTokens); p != "" {
		t.Fatalf("first /v1 stream: %s", p)
	}
	if _, p := learners[0].run(ctx); p != "" {
		t.Fatalf("first lab run: %s", p)
	}
	closeIdle()
	cold := releaseAndSettle(t, srv, met, 1)
	if _, _, p := fire(ctx, api, srv.url, loadStreams, learners); len(p) > 0 {
		t.Fatalf("warm-up burst: %d errors, the first: %s", len(p), p[0])
	}
	closeIdle()
	base := releaseAndSettle(t, srv, met, 2)

	peak := watchPeak(met)
	start := time.Now()
	ttfts, runTimes, problems := fire(ctx, api, srv.url, loadStreams, learners)
	wall := time.Since(start)
	top := peak.stop()
	closeIdle()
	idle := met.mustScrape(t)
	after := releaseAndSettle(t, srv, met, 3)

	t.Logf("load: %d /v1 streams (max_tokens %d) and %d lab runs at once in %v, %d errors",
		loadStreams, loadMaxTokens, loadRuns, wall.Round(time.Millisecond), len(problems))
	t.Logf("/v1 TTFT %s; lab run (POST to final frame) %s", spread(ttfts), spread(runTimes))
	t.Logf("goroutines: cold %d, warm baseline %d, peak %d, after %d", cold.goroutines, base.goroutines, top.goroutines, after.goroutines)
	t.Logf("RSS: cold %.1f MiB (heap %.1f), warm baseline %.1f MiB (heap %.1f), peak %.1f MiB, idle after the load %.1f MiB (heap %.1f, not yet collected), "+
		"after SIGUSR1 %.1f MiB (heap %.1f), %+.0f%% on the baseline",
		mib(cold.rss), mib(cold.heapAlloc), mib(base.rss), mib(base.heapAlloc), mib(top.rss), mib(idle.rss), mib(idle.heapAlloc),
		mib(after.rss), mib(after.heapAlloc), 100*(after.rss/base.rss-1))

	for i, p := range problems {
		if i == 10 {
			t.Errorf("... and %d more", len(problems)-10)
			break
		}
		t.Error(p)
	}
	for source, want := range map[string]uint64{"api": loadStreams, "lab": loadRuns} {
		if got := after.finished[source] - base.finished[source]; got != want {
			t.Errorf("the engines observed %d finished %s requests during the load, want %d", got, source, want)
		}
	}
	if after.goroutines > cold.goroutines+goroutineSlack {
		t.Errorf("goroutines %d after the load, want at most the %d before any load + %d", after.goroutines, cold.goroutines, goroutineSlack)
	}
	if after.rss > base.rss*(1+rssSlack) {
		t.Errorf("RSS %.1f MiB after the load, want within %.0f%% of the baseline %.1f MiB", mib(after.rss), 100*rssSlack, mib(base.rss))
	}
	if t.Failed() {
		t.Logf("server log tail:\n%s", tail(srv.logs(), 3000))
	}
}

// releaseAndSettle sends SIGUSR1, waits for the server's n-th "memory
// returned" line, and returns the figures once they are steady.
func releaseAndSettle(t *testing.T, srv *binary, met *scraper, n int) serverFigures {
	t.Helper()
	if err := srv.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatalf("SIGUSR1: %v", err)
	}
	waitFor(t, settleLimit, "the server to return its free memory", func() bool {
		return strings.Count(srv.logs(), "memory returned to the OS") >= n
	})
	return settle(t, met)
}

// fire sends the /v1 streams and the lab runs at once (released together
// once every goroutine is ready) and waits for all of them.
func fire(ctx context.Context, api *http.Client, base string, streams int, learners []*loadLearner) (ttfts, runTimes []time.Duration, problems []string) {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		ready sync.WaitGroup
		start = make(chan struct{})
	)
	record := func(kind string, n int, d time.Duration, problem string, into *[]time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if problem != "" {
			problems = append(problems, fmt.Sprintf("%s %d: %s", kind, n, problem))
			return
		}
		*into = append(*into, d)
	}
	launch := func(f func()) {
		wg.Add(1)
		ready.Add(1)
		go func() {
			defer wg.Done()
			ready.Done()
			<-start
			f()
		}()
	}
	for i := range streams {
		launch(func() {
			d, p := streamV1(ctx, api, base, i, loadMaxTokens)
			record("/v1 stream", i, d, p, &ttfts)
		})
	}
	for i, l := range learners {
		launch(func() {
			d, p := l.run(ctx)
			record("lab run", i, d, p, &runTimes)
		})
	}
	ready.Wait()
	close(start)
	wg.Wait()
	return ttfts, runTimes, problems
}

// settle scrapes until go_goroutines reads the same and RSS moves less
// than 1 MiB over four scrapes a quarter second apart: the warm-up's
// connections have closed and the scavenger has returned what it will.
// That scrape is the baseline.
func settle(t *testing.T, met *scraper) serverFigures {
	t.Helper()
	deadline := time.Now().Add(settleLimit)
	var last []serverFigures
	for {
		last = append(last, met.mustScrape(t))
		if n := len(last); n >= 4 {
			window := last[n-4:]
			lo, hi := window[0].rss, window[0].rss
			same := true
			for _, f := range window {
				lo, hi = min(lo, f.rss), max(hi, f.rss)
				same = same && f.goroutines == window[0].goroutines
			}
			if same && hi-lo < 1<<20 {
				return window[3]
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not settle in %v (last %d goroutines, %.1f MiB)", settleLimit, last[len(last)-1].goroutines, mib(last[len(last)-1].rss))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// peakWatch samples /metrics during the load and keeps the highest figures.
type peakWatch struct {
	stopC chan struct{}
	done  chan serverFigures
}

func watchPeak(met *scraper) *peakWatch {
	w := &peakWatch{stopC: make(chan struct{}), done: make(chan serverFigures, 1)}
	go func() {
		var top serverFigures
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if f, err := met.scrape(); err == nil {
				top.goroutines, top.rss = max(top.goroutines, f.goroutines), max(top.rss, f.rss)
			}
			select {
			case <-w.stopC:
				w.done <- top
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *peakWatch) stop() serverFigures {
	close(w.stopC)
	return <-w.done
}

func mib(b float64) float64 { return b / (1 << 20) }

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
