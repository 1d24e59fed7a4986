package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/web/store"
)

// answerLength is an "Answer length" knob as the labs declare theirs.
var answerLength = labs.Knob{Name: "answerTokens", Label: "Answer length", Kind: labs.KnobRange, Unit: "tokens", Min: 50, Max: 1000, Step: 10}

// A failed run on the server reads as one sentence in the learner's
// terms, whatever the client wrapped around the cause; a server that ends
// its answers itself is told what to set the answer length to.
func TestServerFailureSentences(t *testing.T) {
	u := &labs.EngineChoice{Label: "vLLM at http://gpu:8000/v1"}
	short := func(wrote, asked int) error {
		return fmt.Errorf("upstream http://gpu:8000/v1: %w", &upstream.ShortAnswer{Wrote: wrote, Asked: asked})
	}
	knobs := []labs.Knob{answerLength}
	cases := []struct {
		name  string
		err   error
		knobs []labs.Knob
		vals  labs.Values
		want  []string
	}{
		{"server error", &upstream.ServerError{Status: 404, Message: "The model `x` does not exist."}, nil, nil,
			[]string{"That server refused the run: The model `x` does not exist."}},
		{"short, fits the knob", short(100, 300), knobs, labs.Values{"answerTokens": 300.0},
			[]string{"ends its answers itself and wrote 100 tokens where this run asks for 300", "Set Answer length to 100 tokens or fewer"}},
		{"short, rounded down to the knob's step", short(97, 300), knobs, labs.Values{"answerTokens": 300.0},
			[]string{"Set Answer length to 90 tokens or fewer"}},
		{"short, below the knob's least", short(10, 60), knobs, labs.Values{"answerTokens": 60.0},
			[]string{"goes no lower than 50 tokens", "honours ignore_eos"}},
		{"short, another call than the answer", short(30, 60), knobs, labs.Values{"answerTokens": 300.0},
			[]string{"Ask for 30 tokens or fewer"}},
		{"short, no answer knob", short(30, 60), nil, nil, []string{"Ask for 30 tokens or fewer"}},
		{"broken off", fmt.Errorf("upstream http://gpu:8000/v1: %w", upstream.ErrIncomplete), nil, nil,
			[]string{"could not be reached or broke off the answer"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := serverFailure(u, c.err, c.knobs, c.vals)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q, want %q", got, w)
				}
			}
			for _, bad := range []string{"..", "upstream http", "*upstream", "Please ask again"} {
				if strings.Contains(got, bad) {
					t.Errorf("%q contains %q", got, bad)
				}
			}
		})
	}
}

// A run on a server that ends its answers itself (Ollama) fails in every
// lab with one message: what happened and the answer length to set. No
// figure of the failed run stays on the page, nothing is saved, and the
// side-by-side slot stops saying both engines are running.
func TestEngineChoiceRunThatFailsOnTheServer(t *testing.T) {
	for _, tc := range []struct {
		slug, body string
		natural    int
		want       string
		lab        func(*labs.Engines) (labs.Lab, error)
	}{
		{"streaming", `{"labStreaming":{"answerTokens":100},"labStreamingEngine":"server"}`, 60, "Set Answer length to 60 tokens or fewer",
			func(pool *labs.Engines) (labs.Lab, error) {
				return streaming.New(streaming.Config{Engines: pool, Tick: -1})
			}},
		{"latency-budget", `{"labLatencyBudget":{"answerTokens":50,"requests":20},"labLatencyBudgetEngine":"server"}`, 30, "Set Answer length to 30 tokens or fewer",
			func(pool *labs.Engines) (labs.Lab, error) { return budget.New(pipelinelab.Config{Engines: pool}) }},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			pool := labs.NewEngines(labs.EnginesConfig{})
			t.Cleanup(func() { pool.Close() })
			lab, err := tc.lab(pool)
			if err != nil {
				t.Fatal(err)
			}
			fake := &upstreamtest.Fake{Format: upstreamtest.Ollama, Model: "recorded", NaturalLength: tc.natural}
			s := serverBeside(t, lab, &upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(fake), RunningCounts: true})
			ts := startHTTP(t, s)
			c := client(t)
			get(t, c, ts.URL+"/labs/"+tc.slug)
			_, evs := postLabRun(t, c, ts.URL, tc.slug, tc.body)
			pre := "#lab-" + tc.slug
			if !lastPatch(evs, pre+"-error", fmt.Sprintf("ends its answers itself and wrote %d tokens", tc.natural)) || !lastPatch(evs, pre+"-error", tc.want) ||
				!lastPatch(evs, pre+"-status", "status-failed") {
				t.Errorf("the run is not marked failed with the one message: error box %q", lastHTML(evs, pre+"-error"))
			}
			if lastPatch(evs, pre+"-error", "Please ask again") || lastPatch(evs, pre+"-status", "wrote ") {
				t.Error("the chat's wording, or the reason said twice")
			}
			for _, panel := range []string{"-stats", "-text", "-tables"} {
				if html := lastHTML(evs, pre+panel); strings.Contains(html, "ms") || strings.Contains(html, "tokens") {
					t.Errorf("%s still shows the failed run's figures: %q", panel, html)
				}
			}
			if lastPatch(evs, pre+"-engines", "Running on that server") || !lastPatch(evs, pre+"-engines", "ended without a result") {
				t.Error("the side-by-side slot still says both engines are running")
			}
			runs, err := s.store.ListRuns(context.Background(), learnerOf(t, c, ts.URL), tc.slug, 10)
			if err != nil || len(runs) != 0 {
				t.Errorf("%d runs saved (%v), want none", len(runs), err)
			}
		})
	}
}

// Settings that make the bundled engine play a hosted provider are
// refused for a run on the server before anything runs: under each knob
// and once in the error box, with no request to the server. So is a run
// on the server from a workshop page, whose runs go to the room's engines.
func TestEngineChoiceRefusesProviderKnobs(t *testing.T) {
	s, replay := engineServer(t, true)
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/labs/streaming")
	for _, tc := range []struct {
		name, body string
		status     int
		knobs      []string
		workshop   bool
	}{
		{"network", `{"labStreaming":{"answerTokens":50,"rttMs":190},"labStreamingEngine":"server"}`, 422, []string{"rttMs"}, false},
		{"hosted tier", `{"labStreaming":{"answerTokens":50,"rttMs":190,"freshConnection":true,"tenantRate":9},"labStreamingEngine":"server"}`, 422,
			[]string{"rttMs", "freshConnection", "tenantRate"}, false},
		{"speed cap", `{"labStreaming":{"answerTokens":50,"speedCap":100},"labStreamingEngine":"server"}`, 422, []string{"speedCap"}, false},
		{"on the bundled engine", `{"labStreaming":{"answerTokens":50,"rttMs":190},"labStreamingEngine":"bundled"}`, 200, nil, false},
		{"from a workshop page", `{"labStreaming":{"answerTokens":50},"labStreamingEngine":"server"}`, 422, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slug := "streaming"
			if tc.workshop {
				slug += "?w=ROOM42"
			}
			status, evs := postLabRun(t, c, ts.URL, slug, tc.body)
			if status != tc.status || replay.Served() != 0 {
				t.Fatalf("status %d, served %d; want %d and none", status, replay.Served(), tc.status)
			}
			for _, k := range tc.knobs {
				if !lastPatch(evs, "#lab-streaming-err-"+k, "to run on that server") {
					t.Errorf("no message under %s", k)
				}
			}
			want := "pick the bundled engine"
			if tc.workshop {
				want = "the room&#39;s shared engines"
			}
			if refused := tc.status == 422; refused != lastPatch(evs, "#lab-streaming-error", want) {
				t.Errorf("error box %q (refused %v)", lastHTML(evs, "#lab-streaming-error"), refused)
			}
			if lastPatch(evs, "#lab-streaming-error", "Reload the page") {
				t.Error("the box tells the learner to reload a page that is fine")
			}
		})
	}
}

// The side-by-side never puts a figure the lab works out on the bundled
// engine in the server's measured column, also when the server run leaves
// the figure off (serverLacks) rather than show one it cannot measure.
func TestStatRowsLeaveBundledFiguresUnmeasured(t *testing.T) {
	stat := func(key, label string, v float64) labs.Stat {
		return labs.Stat{Key: key, Label: label, Value: v, Unit: "ms"}
	}
	for _, tc := range []struct {
		lab         string
		key, label  string
		measured    bool
		serverLacks bool
	}{
		{"prefill-decode", "ttft_ms", "Time to first token", true, false},
		{"prefill-decode", "ms_per_1k_prompt_tokens", "Prefill cost", false, false},
		{"cancellation", "tokens_generated", "Tokens generated", false, false},
		{"cancellation", "cost_saved", "Cost saved per million such answers", false, true},
		{"streaming", "ttft_ms", "Time to first token", true, false},
	} {
		t.Run(tc.lab+"/"+tc.key, func(t *testing.T) {
			server := store.Run{Lab: tc.lab, Summary: store.Summary{Stats: []labs.Stat{stat(tc.key, tc.label, 400)}}}
			if tc.serverLacks {
				server.Summary.Stats = nil
			}
			twin := store.Run{Lab: tc.lab, Summary: store.Summary{Stats: []labs.Stat{stat(tc.key, tc.label, 30)}}}
			rows, unmeasured := statRows(server, twin)
			if len(rows) != 1 {
				t.Fatalf("%d rows", len(rows))
			}
			r := rows[0]
			if got := r.A != "not measured" && r.Diff != ""; got != tc.measured || unmeasured == tc.measured {
				t.Errorf("row %+v (note %v), want measured %v", r, unmeasured, tc.measured)
			}
			if r.B == "—" {
				t.Errorf("the modelled figure is missing: %+v", r)
			}
		})
	}
}

// lastHTML is the last patch of selector.
func lastHTML(evs []sseEvent, selector string) string {
	last := ""
	for _, e := range evs {
		if e.selector() == selector {
			last = e.html()
		}
	}
	return last
}

// Two runs' labels of one figure make one row label: the same label as
// it is, or what differs side by side, the server's first.
func TestBothLabels(t *testing.T) {
	for _, tc := range []struct{ server, twin, want string }{
		{"Time to first token", "Time to first token", "Time to first token"},
		{"Budget missed: p95 ≤ 1.00 s", "Budget met: p95 ≤ 1.00 s", "Budget missed / met: p95 ≤ 1.00 s"},
		{"Mean first word (200 requests)", "Mean first word (20 requests)", "Mean first word (200 / 20 requests)"},
		{"A", "B", "A / B"},
	} {
		if got := bothLabels(tc.server, tc.twin); got != tc.want {
			t.Errorf("bothLabels(%q, %q) = %q, want %q", tc.server, tc.twin, got, tc.want)
		}
	}
}
