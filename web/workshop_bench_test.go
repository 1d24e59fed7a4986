package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
)

// BenchmarkWorkshopRoom drives a room of simulated learners through the
// real HTTP handlers on loopback, with one board subscribed: every learner
// joins and opens the room's stream; then, per iteration, the instructor
// pushes the streaming lab, every learner waits for the push on its stream
// and runs the lab with a guess, reading the whole result stream. It
// reports the p95 push-to-learner latency, the p95 lag from a learner's
// run ending to the board counting it, the bytes each learner received per
// round, and the process's peak RSS and CPU time (clients included: they
// share the process).
//
// Room sizes come from LATENCYLAB_ROOM_SIZES (default "200"); the pushed
// preset from LATENCYLAB_ROOM_PRESET (default "Streaming on an H100").
// Run it alone, it is a load test:
//
//	go test ./web/ -run '^$' -bench WorkshopRoom -benchtime 1x
func BenchmarkWorkshopRoom(b *testing.B) {
	sizes := []int{200}
	if env := os.Getenv("LATENCYLAB_ROOM_SIZES"); env != "" {
		sizes = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 || n > 2000 {
				b.Fatalf("LATENCYLAB_ROOM_SIZES=%q: want sizes from 1 to 2000", env)
			}
			sizes = append(sizes, n)
		}
	}
	preset := os.Getenv("LATENCYLAB_ROOM_PRESET")
	if preset == "" {
		preset = "Streaming on an H100"
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("learners=%d", n), func(b *testing.B) { benchRoom(b, n, preset) })
	}
}

var ranRe = regexp.MustCompile(`id="ws-ran">(\d+)<`)

func benchRoom(b *testing.B, n int, preset string) {
	s, base := newStreamingServer(b, func(c *Config) { c.Workshops.SizeCap = max(300, n) })
	tr := &http.Transport{MaxIdleConnsPerHost: 2 * n, MaxConnsPerHost: 0, DisableCompression: false}
	b.Cleanup(tr.CloseIdleConnections)
	newClient := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar, Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	do := func(c *http.Client, method, u string, body io.Reader, ctype string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, method, base+u, body)
		if err != nil {
			return nil, err
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Datastar-Request", "true")
		return c.Do(req)
	}
	form := func(c *http.Client, u string, v url.Values) {
		resp, err := do(c, "POST", u, strings.NewReader(v.Encode()), "application/x-www-form-urlencoded")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			b.Fatalf("POST %s: %d", u, resp.StatusCode)
		}
	}
	warm := func(c *http.Client, u string) {
		resp, err := do(c, "GET", u, nil, "")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	inst := newClient()
	warm(inst, "/workshops/new")
	resp, err := do(inst, "POST", "/workshops", strings.NewReader("name=Load+room"), "application/x-www-form-urlencoded")
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	code := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/workshops/"), "/board")

	// The board: when did it first count k learners as having run?
	var boardMu sync.Mutex
	boardSeen := map[int]time.Time{}
	bresp, err := do(inst, "GET", "/workshops/"+code+"/board/events", nil, "")
	if err != nil {
		b.Fatal(err)
	}
	go readEvents(bresp.Body, func(ev sseEvent) bool {
		if m := ranRe.FindStringSubmatch(ev.html()); m != nil {
			k, _ := strconv.Atoi(m[1])
			boardMu.Lock()
			if _, ok := boardSeen[k]; !ok {
				boardSeen[k] = ev.At
			}
			boardMu.Unlock()
		}
		return true
	})

	type learner struct {
		c      *http.Client
		pushed chan time.Time // when each round's stage arrived
		bytes  int64
	}
	ls := make([]*learner, n)
	var wg sync.WaitGroup
	for i := range ls {
		l := &learner{c: newClient(), pushed: make(chan time.Time, 4)}
		ls[i] = l
		warm(l.c, "/join")
		form(l.c, "/join", url.Values{"code": {code}, "name": {"Learner " + strconv.Itoa(i)}})
		resp, err := do(l.c, "GET", "/workshops/"+code+"/events?round=0", nil, "")
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cr := &countingReader{r: resp.Body}
			readEvents(cr, func(ev sseEvent) bool {
				if ev.selector() == "#ws-stage" {
					l.pushed <- ev.At
				}
				return true
			})
			l.bytes += cr.n
		}()
	}
	lab, _ := s.cfg.Catalog.Get("streaming")
	signals, _, err := presetSignals(lab, preset)
	if err != nil {
		b.Fatal(err)
	}
	runBody := strings.Replace(signals, `"labStreamingGuess":""`, `"labStreamingGuess":"400"`, 1)

	var pushLat, boardLag []float64
	var roundBytes, roundPlain, roundSecs []float64
	var ru0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b.ResetTimer()
	for round := 1; round <= b.N; round++ {
		boardMu.Lock()
		clear(boardSeen)
		boardMu.Unlock()
		pushAt := time.Now()
		form(inst, "/workshops/"+code+"/push", url.Values{"lab": {"streaming"}, "preset": {preset}})
		done := make([]time.Time, n)
		runBytes, plainBytes := make([]int64, n), make([]int64, n)
		var rwg sync.WaitGroup
		for i, l := range ls {
			rwg.Add(1)
			go func() {
				defer rwg.Done()
				select {
				case at := <-l.pushed:
					pushLat = appendLocked(&boardMu, pushLat, at.Sub(pushAt).Seconds()*1000)
				case <-time.After(30 * time.Second):
					b.Errorf("learner %d never saw push %d", i, round)
					return
				}
				req, _ := http.NewRequestWithContext(ctx, "POST", base+"/labs/streaming/run?w="+code, strings.NewReader(runBody))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Datastar-Request", "true")
				req.Header.Set("Accept-Encoding", "gzip") // set by hand, so the bytes counted are the wire's
				resp, err := l.c.Do(req)
				if err != nil {
					b.Errorf("learner %d run: %v", i, err)
					return
				}
				wire := &countingReader{r: resp.Body}
				var body io.Reader = wire
				if resp.Header.Get("Content-Encoding") == "gzip" {
					if body, err = gzip.NewReader(wire); err != nil {
						b.Errorf("learner %d: %v", i, err)
						return
					}
				}
				// Keep only the stream's tail: holding every learner's whole
				// stream would make the clients, not the server, the
				// process's memory.
				buf := &tailBuffer{max: 64 << 10}
				plain, _ := io.Copy(buf, body)
				resp.Body.Close()
				done[i], runBytes[i], plainBytes[i] = time.Now(), wire.n, plain
				if !bytes.Contains(buf.b, []byte("status-done")) {
					b.Errorf("learner %d: run did not finish (%d): %.300s", i, resp.StatusCode, buf.b)
				}
			}()
		}
		rwg.Wait()
		roundSecs = append(roundSecs, time.Since(pushAt).Seconds())
		// Wait until the board has counted everyone (or give up after 10 s).
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			boardMu.Lock()
			_, all := boardSeen[n]
			boardMu.Unlock()
			if all {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		slices.SortFunc(done, func(a, b time.Time) int { return a.Compare(b) })
		boardMu.Lock()
		for k := 1; k <= n; k++ {
			if seen, ok := boardSeen[k]; ok {
				boardLag = append(boardLag, max(seen.Sub(done[k-1]).Seconds()*1000, 0))
			} else if _, any := boardSeen[n]; !any {
				// Coalesced: the board jumped past k. Its lag is that of
				// the next count it showed.
				continue
			}
		}
		boardMu.Unlock()
		var total, totalPlain int64
		for i := range runBytes {
			total += runBytes[i]
			totalPlain += plainBytes[i]
		}
		roundBytes = append(roundBytes, float64(total))
		roundPlain = append(roundPlain, float64(totalPlain))
	}
	b.StopTimer()
	var ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(b.N)
	slices.Sort(pushLat)
	slices.Sort(boardLag)
	b.ReportMetric(labs.Percentile(pushLat, 50), "push-p50-ms")
	b.ReportMetric(labs.Percentile(pushLat, 95), "push-p95-ms")
	b.ReportMetric(labs.Percentile(boardLag, 95), "board-lag-p95-ms")
	b.ReportMetric(mean(roundBytes)/1e6, "run-wire-MB/round")
	b.ReportMetric(mean(roundPlain)/1e6, "run-plain-MB/round")
	b.ReportMetric(cpu.Seconds(), "cpu-s/round")
	b.ReportMetric(mean(roundSecs), "round-s")
	b.ReportMetric(float64(peakRSS())/1024, "peak-rss-MB")
	b.ReportMetric(0, "ns/op")
	cancel()
	wg.Wait()
	var sseBytes int64
	for _, l := range ls {
		sseBytes += l.bytes
	}
	b.ReportMetric(float64(sseBytes)/float64(n)/1e3, "room-stream-kB/learner")
}

func appendLocked(mu *sync.Mutex, s []float64, v float64) []float64 {
	mu.Lock()
	defer mu.Unlock()
	return append(s, v)
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t / float64(len(v))
}

// peakRSS is the process's peak resident set in KiB (VmHWM).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	b   []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}
