package web

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/labs"
)

// sseEvent is one parsed server-sent event and when it arrived.
type sseEvent struct {
	Name string
	Data []string
	At   time.Time
}

// readEvents parses SSE from r until EOF, calling each as it arrives.
func readEvents(r io.Reader, each func(sseEvent) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Name != "" {
				ev.At = time.Now()
				if !each(ev) {
					return nil
				}
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			ev.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.Data = append(ev.Data, strings.TrimPrefix(line, "data: "))
		}
	}
	return sc.Err()
}

func (e sseEvent) selector() string {
	for _, d := range e.Data {
		if s, ok := strings.CutPrefix(d, "selector "); ok {
			return s
		}
	}
	return ""
}

func (e sseEvent) html() string {
	var b strings.Builder
	for _, d := range e.Data {
		if s, ok := strings.CutPrefix(d, "fragments "); ok {
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

func postRun(t *testing.T, ctx context.Context, c *http.Client, base, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/labs/ticker/run", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST run: %v", err)
	}
	return resp
}

// serveReal starts the real server (Serve on port 0) and returns its URL
// and a stop function that waits for Serve to return.
func serveReal(t *testing.T, s *testServer) (string, func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return "http://" + ln.Addr().String(), stop
}

func TestRunStreamsEventsOverTime(t *testing.T) {
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	c := client(t)
	get(t, c, base+"/labs/ticker") // get the learner cookie
	resp := postRun(t, context.Background(), c, base, `{"labTicker":{"steps":"6","gapMs":150,"mode":"numbers","loud":true},"labTickerGuess":"200"}`)
	defer resp.Body.Close()
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// The transport asked for gzip and decompressed it: this checks that the
	// gzip middleware flushes per event rather than buffering the stream.
	if !resp.Uncompressed {
		t.Error("the stream was not gzipped, so this test no longer checks that compression does not buffer")
	}
	var textAt []time.Time
	var events []sseEvent
	if err := readEvents(resp.Body, func(e sseEvent) bool { events = append(events, e); return true }); err != nil {
		t.Fatalf("read stream: %v", err)
	}
	for _, e := range events {
		if e.Name != "datastar-merge-fragments" {
			t.Errorf("event %q, want only merge-fragments", e.Name)
		}
		if e.selector() == "#lab-ticker-text" && strings.Contains(e.html(), "word") {
			textAt = append(textAt, e.At)
		}
	}
	if len(textAt) < 5 {
		t.Fatalf("text panel patched %d times, want at least 5 (events: %d)", len(textAt), len(events))
	}
	if spread := textAt[len(textAt)-1].Sub(textAt[0]); spread < 500*time.Millisecond {
		t.Errorf("text patches arrived within %v: buffered, not streamed", spread)
	}
	last := events[len(events)-1]
	if last.selector() != "#lab-ticker-runs" || !strings.Contains(last.html(), "Latest") {
		t.Errorf("last event patches %q, want the run list", last.selector())
	}
	var sawGuess, sawChart bool
	for _, e := range events {
		sawGuess = sawGuess || (e.selector() == "#lab-ticker-stats" && strings.Contains(e.html(), "You predicted"))
		sawChart = sawChart || strings.Contains(e.html(), `<svg id="lab-ticker-words"`)
	}
	if !sawGuess || !sawChart {
		t.Errorf("guess shown %v, chart drawn with a scoped id %v", sawGuess, sawChart)
	}
	// The run is saved for this learner only.
	_, runs := get(t, c, base+"/labs/ticker/runs")
	if !strings.Contains(runs, "Latest") || !strings.Contains(runs, "Numbers") || !strings.Contains(runs, "200 ms") {
		t.Errorf("run list after the run: %.500s", runs)
	}
	if _, other := get(t, client(t), base+"/labs/ticker/runs"); strings.Contains(other, "Latest") {
		t.Error("another learner sees the run")
	}
}

func TestClosingTheStreamCancelsTheRun(t *testing.T) {
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	resp := postRun(t, ctx, client(t), base, `{"labTicker":{"steps":400,"gapMs":100}}`)
	n := 0
	_ = readEvents(resp.Body, func(e sseEvent) bool {
		if e.selector() == "#lab-ticker-text" && strings.Contains(e.html(), "word2 ") {
			return false
		}
		n++
		return true
	})
	cancel()
	resp.Body.Close()
	select {
	case <-s.lab.canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("the lab's context was not cancelled after the client left")
	}
}

func TestBadSignalsGetFieldMessages(t *testing.T) {
	s := newTestServer(t, nil)
	ts := startHTTP(t, s)
	c := client(t)
	cases := []struct {
		name, body string
		status     int
		selector   string
		want       string
	}{
		{"out of range", `{"labTicker":{"steps":9999}}`, 422, "#lab-ticker-err-steps", "between 1 and 400 frames"},
		{"wrong type", `{"labTicker":{"loud":"maybe","mode":"shout"}}`, 422, "#lab-ticker-err-loud", "on or off"},
		{"bad enum", `{"labTicker":{"mode":"shout"}}`, 422, "#lab-ticker-err-mode", "not one of the listed choices"},
		{"cross-knob check", `{"labTicker":{"steps":400,"gapMs":2000}}`, 422, "#lab-ticker-err-gapMs", "under ten minutes"},
		{"bad guess", `{"labTicker":{},"labTickerGuess":"soon"}`, 422, "#lab-ticker-err-guess", "must be a number"},
		{"every field, not the first", `{"labTicker":{"steps":0,"gapMs":-1}}`, 422, "#lab-ticker-err-gapMs", "between 0 and 2,000"},
		{"misspelt knob", `{"labTicker":{"step":3}}`, 422, "#lab-ticker-error", "&#34;step&#34; is not a setting of this lab"},
		{"malformed json", `{"labTicker":`, 400, "#lab-ticker-error", "could not be read"},
		{"not an object", `{"labTicker":"x"}`, 400, "#lab-ticker-error", "could not be read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := postRun(t, context.Background(), c, ts.URL, tc.body)
			defer resp.Body.Close()
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Errorf("status %d %q, want %d event stream", resp.StatusCode, resp.Header.Get("Content-Type"), tc.status)
			}
			found := false
			_ = readEvents(resp.Body, func(e sseEvent) bool {
				if e.selector() == tc.selector && strings.Contains(e.html(), tc.want) {
					found = true
				}
				return true
			})
			if !found {
				t.Errorf("no patch of %s containing %q", tc.selector, tc.want)
			}
		})
	}
	select {
	case <-s.lab.started:
		t.Error("a run started despite bad settings")
	default:
	}
}

func TestConcurrentRunLimit(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxRuns = 1 })
	base, _ := serveReal(t, s)
	c := client(t)
	get(t, c, base+"/")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := postRun(t, ctx, c, base, `{"labTicker":{"steps":400,"gapMs":100}}`)
	defer first.Body.Close()
	<-s.lab.started
	second := postRun(t, context.Background(), c, base, `{}`)
	body, _ := io.ReadAll(second.Body)
	second.Body.Close()
	if second.StatusCode != 429 || !strings.Contains(string(body), "already have 1 runs going") {
		t.Errorf("second run = %d %.300s", second.StatusCode, body)
	}
}

func TestShutdownEndsStreamsWithAnEvent(t *testing.T) {
	s := newTestServer(t, nil)
	base, stop := serveReal(t, s)
	resp := postRun(t, context.Background(), client(t), base, `{"labTicker":{"steps":400,"gapMs":100}}`)
	defer resp.Body.Close()
	<-s.lab.started
	got := make(chan bool, 1)
	go func() {
		saw := false
		_ = readEvents(resp.Body, func(e sseEvent) bool {
			saw = saw || strings.Contains(e.html(), "Server shutting down")
			return true
		})
		got <- saw
	}()
	if err := stop(); err != nil {
		t.Fatalf("Serve returned %v", err)
	}
	if !<-got {
		t.Error("the running stream got no shutting-down event")
	}
	if err := s.store.Ping(context.Background()); err == nil {
		t.Error("store still open after shutdown")
	}
}

// burstLab emits n frames as fast as it can, then a final one.
type burstLab struct{ n int }

func (b burstLab) Run(ctx context.Context, emit func(labs.Frame)) error {
	for i := range b.n {
		emit(labs.Frame{Status: "frame", Stats: []labs.Stat{{Key: "i", Value: float64(i)}}})
	}
	emit(labs.Frame{Final: true, Status: "final"})
	return nil
}

func TestForwardRunCoalescesAndAlwaysSendsFinal(t *testing.T) {
	var sent []labs.Frame
	res := forwardRun(context.Background(), "burst", burstLab{n: 5000}.Run, clock.Wall{}, 50*time.Millisecond, func(f labs.Frame) error {
		sent = append(sent, f)
		return nil
	})
	if res.Err != nil || res.Published != 5001 {
		t.Fatalf("res = %+v", res)
	}
	if len(sent) == 0 || !sent[len(sent)-1].Final || finalFrame(res) == nil {
		t.Fatalf("final frame not sent last: %d sent", len(sent))
	}
	if len(sent) > 50 {
		t.Errorf("%d of 5001 frames sent; a burst should coalesce", len(sent))
	}
}

// steadyLab emits a frame every tick for n ticks.
type steadyLab struct {
	n    int
	tick time.Duration
}

func (l steadyLab) Run(ctx context.Context, emit func(labs.Frame)) error {
	for i := range l.n {
		if err := realSleep(ctx, l.tick); err != nil {
			return err
		}
		emit(labs.Frame{Stats: []labs.Stat{{Key: "i", Value: float64(i)}}})
	}
	emit(labs.Frame{Final: true})
	return nil
}

func TestForwardRunKeepsTheGap(t *testing.T) {
	gap := 40 * time.Millisecond
	var at []time.Time
	var finals int
	res := forwardRun(context.Background(), "steady", steadyLab{n: 30, tick: 5 * time.Millisecond}.Run, clock.Wall{}, gap, func(f labs.Frame) error {
		if f.Final {
			finals++
			return nil
		}
		at = append(at, time.Now())
		return nil
	})
	if res.Err != nil || finals != 1 {
		t.Fatalf("res %+v, finals %d", res, finals)
	}
	for i := 1; i < len(at); i++ {
		if d := at[i].Sub(at[i-1]); d < gap-time.Millisecond {
			t.Errorf("patches %d and %d only %v apart, want >= %v", i-1, i, d, gap)
		}
	}
}

// panicLab panics mid-run.
type panicLab struct{ burstLab }

func (panicLab) Run(context.Context, func(labs.Frame)) error { panic("lab bug") }

func TestForwardRunRecoversLabPanics(t *testing.T) {
	res := forwardRun(context.Background(), "panic", panicLab{}.Run, clock.Wall{}, time.Millisecond, func(labs.Frame) error { return nil })
	if res.Err == nil || !strings.Contains(res.Err.Error(), "panicked") {
		t.Errorf("err = %v", res.Err)
	}
}

// chartThenFinalLab sets a chart in one frame and ends with a final frame
// that carries only stats, faster than the patch gap.
type chartThenFinalLab struct{ burstLab }

func (chartThenFinalLab) Run(ctx context.Context, emit func(labs.Frame)) error {
	emit(labs.Frame{Status: "first"})
	emit(labs.Frame{Charts: []labs.Chart{{ID: "c", Kind: labs.ChartLine}}, Text: &labs.TextPanel{Body: "all"}})
	emit(labs.Frame{Final: true, Stats: []labs.Stat{{Key: "k", Value: 1}}})
	return nil
}

func TestCoalescingKeepsSkippedPanels(t *testing.T) {
	var sent []labs.Frame
	forwardRun(context.Background(), "chart", chartThenFinalLab{}.Run, clock.Wall{}, time.Hour, func(f labs.Frame) error {
		sent = append(sent, f)
		return nil
	})
	last := sent[len(sent)-1]
	if !last.Final || len(last.Charts) != 1 || last.Text == nil || len(last.Stats) != 1 {
		t.Errorf("last sent frame lost the skipped frame's panels: %+v (of %d sent)", last, len(sent))
	}
}
