package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/streaming"
)

// A failed run on the server reads as one sentence in the learner's
// terms, whatever the client wrapped around the cause.
func TestServerFailureSentences(t *testing.T) {
	u := &labs.EngineChoice{Label: "vLLM at http://gpu:8000/v1"}
	cases := []struct {
		err  error
		want string
	}{
		{&upstream.ServerError{Status: 404, Message: "The model `x` does not exist."}, "That server refused the run: The model `x` does not exist."},
		{fmt.Errorf("upstream http://gpu:8000/v1: %w", &upstream.ShortAnswer{Wrote: 10, Asked: 60}), "That server wrote 10 of the 60 tokens"},
		{fmt.Errorf("upstream http://gpu:8000/v1: %w", upstream.ErrIncomplete), "could not be reached or broke off the answer"},
	}
	for _, c := range cases {
		got := serverFailure(u, c.err)
		if !strings.Contains(got, c.want) || strings.Contains(got, "..") {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
		if strings.Contains(got, "upstream http") || strings.Contains(got, "*upstream") {
			t.Errorf("%q shows the client's internals", got)
		}
	}
}

// A run on the server that fails (here Ollama ending the answer early)
// says why once, in the error box, and the side-by-side slot stops saying both
// engines are running; nothing is saved as measured.
func TestEngineChoiceRunThatFailsOnTheServer(t *testing.T) {
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	lab, err := streaming.New(streaming.Config{Engines: pool, Tick: -1})
	if err != nil {
		t.Fatal(err)
	}
	fake := &upstreamtest.Fake{Format: upstreamtest.Ollama, Model: "recorded", NaturalLength: 10}
	s := serverBeside(t, lab, &upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(fake), RunningCounts: true})
	ts := startHTTP(t, s)
	c := client(t)
	get(t, c, ts.URL+"/labs/streaming")
	_, evs := postLabRun(t, c, ts.URL, "streaming", `{"labStreaming":{"answerTokens":50},"labStreamingEngine":"server"}`)
	if !lastPatch(evs, "#lab-streaming-error", "That server wrote 10 of the 50 tokens") || !lastPatch(evs, "#lab-streaming-status", "status-failed") {
		t.Error("the run is not marked failed with the reason beside it")
	}
	if lastPatch(evs, "#lab-streaming-status", "wrote 10") {
		t.Error("the reason is said twice, in the status line and the error box")
	}
	if lastPatch(evs, "#lab-streaming-engines", "Running on that server") || !lastPatch(evs, "#lab-streaming-engines", "ended without a result") {
		t.Error("the side-by-side slot still says both engines are running")
	}
	runs, err := s.store.ListRuns(context.Background(), learnerOf(t, c, ts.URL), "streaming", 10)
	if err != nil || len(runs) != 0 {
		t.Errorf("%d runs saved (%v), want none", len(runs), err)
	}
}
