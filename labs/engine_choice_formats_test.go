package labs_test

import (
	"errors"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/streaming"
)

// streamOnServer runs the streaming lab for 60 tokens on srv (inside the
// caller's synctest bubble) and returns its last frame and error.
func streamOnServer(t *testing.T, srv *upstreamtest.Fake) (labs.Frame, error) {
	t.Helper()
	choice, err := labs.NewEngineChoice(labs.UpstreamConfig{
		Client: &upstream.Client{BaseURL: "http://fake/v1", HTTP: upstreamtest.InMemory(srv), RunningCounts: true},
		Model:  "fake-model", Deployment: engine.DefaultConfig(),
	}, labs.EnginesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer choice.Close()
	base := labs.NewEngines(labs.EnginesConfig{})
	defer base.Close()
	lab := labtest.Must[*streaming.Lab](t)(streaming.New(labs.LiveConfig{Engines: base, Tick: -1, RunTag: "t"}))
	r, errs := lab.Decode(labs.Values{"streaming": true, "answerTokens": 60.0})
	if len(errs) > 0 {
		t.Fatalf("decode: %v", errs)
	}
	onServer, _ := choice.ServerContext(t.Context())
	var last labs.Frame
	err = r.Start(onServer, func(f labs.Frame) { last = f })
	return last, err
}

// The streaming lab on each kind of server measures its TTFT and counts
// every token it wrote, also when the server merges several tokens into
// one chunk (vLLM and SGLang, read with running counts).
func TestEngineChoiceMeasuresEachServerFormat(t *testing.T) {
	const ttft, gap = 300 * time.Millisecond, 25 * time.Millisecond
	for _, format := range upstreamtest.Formats {
		interval := 1
		if format.HonoursRunningCounts() {
			interval = 3
		}
		t.Run(string(format), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				last, err := streamOnServer(t, &upstreamtest.Fake{Format: format, TTFT: ttft, Gap: gap, StreamInterval: interval})
				if err != nil || !last.Final || last.Error != "" {
					t.Fatalf("error %v, final %v, frame error %q", err, last.Final, last.Error)
				}
				wantTTFT := float64(ttft+time.Duration(interval-1)*gap) / float64(time.Millisecond)
				if got := labtest.Stat(t, last, "ttft_ms"); math.Abs(got-wantTTFT) > 1e-6 {
					t.Errorf("TTFT %.3f ms, want %.3f", got, wantTTFT)
				}
				if got := labtest.Stat(t, last, "tokens"); got != 60 {
					t.Errorf("%v tokens counted, the server wrote 60", got)
				}
			})
		})
	}
}

// A server that ends an answer before the tokens asked although the run
// asked for ignore_eos (Ollama) fails the run with that reason, instead
// of showing a shorter answer's figures as the run's.
func TestEngineChoiceRefusesAShortAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, err := streamOnServer(t, &upstreamtest.Fake{Format: upstreamtest.Ollama, TTFT: 300 * time.Millisecond, Gap: 25 * time.Millisecond, NaturalLength: 10})
		var short *upstream.ShortAnswer
		if !errors.As(err, &short) || short.Wrote != 10 || short.Asked != 60 {
			t.Fatalf("run error %v, want a short answer of 10 of 60 tokens", err)
		}
	})
}
