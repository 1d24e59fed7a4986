package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/batching"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/web/store"
)

// quickTrace plays a short recorded-looking answer: 20 ms to the first
// token, 5 ms a token after it.
var quickTrace = upstreamtest.Trace{Requests: []upstreamtest.TraceRequest{{InputTokens: 8, OutputTokens: 2, TTFTMS: 20, ITLMS: []float64{5}}}}

// engineServer is a test server with the real streaming lab beside the
// ticker, and, with upstream, the engine choice against a replay server.
func engineServer(t *testing.T, upstreamOn bool) (*testServer, *upstreamtest.Server) {
	t.Helper()
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	lab, err := streaming.New(streaming.Config{Engines: pool, Tick: -1})
	if err != nil {
		t.Fatal(err)
	}
	replay := upstreamtest.New(quickTrace, nil)
	var choice *labs.EngineChoice
	if upstreamOn {
		choice, err = labs.NewEngineChoice(labs.UpstreamConfig{Client: &upstream.Client{BaseURL: "http://replay/v1", HTTP: upstreamtest.InMemory(replay)},
			Model: "recorded", Deployment: engine.DefaultConfig()}, labs.EnginesConfig{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { choice.Close() })
	}
	s := newTestServer(t, func(c *Config) {
		cat, err := labs.NewCatalog(newTickerLab().kit(), lab)
		if err != nil {
			t.Fatal(err)
		}
		c.Catalog, c.Upstream = cat, choice
	})
	return s, replay
}

// The engine choice shows only with an upstream, and only on engine labs.
func TestEngineChoiceKnob(t *testing.T) {
	for _, tc := range []struct {
		name     string
		upstream bool
		lab      string
		want     bool
	}{
		{"no upstream", false, "streaming", false},
		{"engine lab", true, "streaming", true},
		{"lab without an engine", true, "ticker", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := engineServer(t, tc.upstream)
			ts := startHTTP(t, s)
			_, body := get(t, client(t), ts.URL+"/labs/"+tc.lab)
			got := strings.Contains(body, `id="lab-`+tc.lab+`-k-engine"`) && strings.Contains(body, `<option value="server">That server</option>`)
			if got != tc.want {
				t.Errorf("engine choice shown %v, want %v", got, tc.want)
			}
		})
	}
}

// A run on the server streams the measured run, then sets the bundled
// engine's run of the same settings beside it with each stat's error, and
// saves both marked with their engine; a choice that is neither engine is
// refused next to the knob, with no run.
func TestEngineChoiceRun(t *testing.T) {
	s, replay := engineServer(t, true)
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/labs/streaming") // the learner cookie
	post := func(body string) (int, []sseEvent) { return postLabRun(t, c, ts.URL, "streaming", body) }
	status, evs := post(`{"labStreaming":{"answerTokens":50},"labStreamingEngine":"gpu"}`)
	if status != 422 || !hasPatch(evs, "#lab-streaming-error", "Pick the bundled engine or that server.") || replay.Served() != 0 {
		t.Fatalf("bad choice: status %d, served %d", status, replay.Served())
	}
	status, evs = post(`{"labStreaming":{"answerTokens":50},"labStreamingEngine":"server"}`)
	if status != 200 || replay.Served() != 1 {
		t.Fatalf("status %d, the server served %d requests", status, replay.Served())
	}
	for _, want := range []string{"That server (measured)", "Bundled engine (modelled)", "Time to first token", "/labs/streaming/compare?a="} {
		if !hasPatch(evs, "#lab-streaming-engines", want) {
			t.Errorf("no side-by-side patch with %q", want)
		}
	}
	runs, err := s.store.ListRuns(context.Background(), learnerOf(t, c, ts.URL), "streaming", 10)
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs saved (%v), want the server's and the model's", len(runs), err)
	}
	if !strings.HasPrefix(runs[0].Engine, "bundled engine modelling llama-3.1-8b") || runs[1].Engine != s.cfg.Upstream.Label {
		t.Errorf("engines %q and %q", runs[0].Engine, runs[1].Engine)
	}
	// The server's first token cannot come before the replay's 20 ms; the
	// bundled engine's is its own model's.
	if ttft := statValue(runs[1], "ttft_ms"); ttft < 20 || ttft == statValue(runs[0], "ttft_ms") {
		t.Errorf("measured TTFT %v ms, modelled %v ms", ttft, statValue(runs[0], "ttft_ms"))
	}
	if !hasPatch(evs, "#lab-streaming-runs", "Bundled, modelling that server") || !hasPatch(evs, "#lab-streaming-runs", "That server") {
		t.Error("the run list does not say which engine made each run")
	}
	status, evs = post(`{"labStreaming":{"answerTokens":50},"labStreamingEngine":"bundled"}`)
	if status != 200 || replay.Served() != 1 || hasPatch(evs, "#lab-streaming-engines", "measured") {
		t.Errorf("a bundled run: status %d, served %d; it must clear the side-by-side and leave the server alone", status, replay.Served())
	}
}

// A run on "that server" whose settings never ask the pool for an engine
// (the batching lab's sweep runs on its own virtual clock) must not present
// the bundled engine's figures as measured: it says so, and the server is
// never called.
func TestEngineChoiceRunThatNeverReachesTheServer(t *testing.T) {
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	lab, err := batching.New(batching.Config{Engines: pool})
	if err != nil {
		t.Fatal(err)
	}
	replay := upstreamtest.New(quickTrace, nil)
	s := serverBeside(t, lab, &upstream.Client{BaseURL: "http://replay/v1", HTTP: upstreamtest.InMemory(replay)})
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/labs/batching")
	_, evs := postLabRun(t, c, ts.URL, "batching", `{"labBatching":{"mode":"sweep"},"labBatchingEngine":"server"}`)
	if !lastPatch(evs, "#lab-batching-engines", "sent no request to that server") || lastPatch(evs, "#lab-batching-engines", "Measured on") || replay.Served() != 0 {
		t.Errorf("served %d; the side-by-side must say nothing reached the server and show no measured column", replay.Served())
	}
}

// serverBeside is a test server with only lab installed and the engine
// choice pointing at the server client talks to.
func serverBeside(t *testing.T, lab labs.Lab, client *upstream.Client) *testServer {
	t.Helper()
	choice, err := labs.NewEngineChoice(labs.UpstreamConfig{Client: client, Model: "recorded", Deployment: engine.DefaultConfig()}, labs.EnginesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { choice.Close() })
	return newTestServer(t, func(c *Config) {
		c.Catalog, _ = labs.NewCatalog(lab)
		c.Upstream = choice
	})
}

// postLabRun posts a run of a lab and reads its whole event stream; slug
// may carry a query ("streaming?w=CODE").
func postLabRun(t *testing.T, c *http.Client, base, slug, body string) (int, []sseEvent) {
	t.Helper()
	slug, query, _ := strings.Cut(slug, "?")
	if query != "" {
		query = "?" + query
	}
	req, _ := http.NewRequest("POST", base+"/labs/"+slug+"/run"+query, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Datastar-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST run: %v", err)
	}
	defer resp.Body.Close()
	var evs []sseEvent
	_ = readEvents(resp.Body, func(e sseEvent) bool { evs = append(evs, e); return true })
	return resp.StatusCode, evs
}

func statValue(r store.Run, key string) float64 {
	st, _ := statOf(r, key)
	return st.Value
}

// lastPatch reports whether the last patch of selector contains want.
func lastPatch(evs []sseEvent, selector, want string) bool {
	return strings.Contains(lastHTML(evs, selector), want)
}

func hasPatch(evs []sseEvent, selector, want string) bool {
	for _, e := range evs {
		if e.selector() == selector && strings.Contains(e.html(), want) {
			return true
		}
	}
	return false
}
