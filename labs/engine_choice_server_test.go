package labs_test

import (
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/labs/streaming"
)

// sides is one lab's settings run on a fake server and on the bundled
// engine modelling it, as the lab page runs them.
type sides struct {
	server, twin       labs.Frame
	serverErr, twinErr error
	tally              *labs.ServerTally
}

// runBothSides runs the lab newLab builds with vals on srv and on its
// twin, inside a synctest bubble.
func runBothSides(t *testing.T, srv http.Handler, newLab func(*labs.Engines) labs.Lab, vals labs.Values) sides {
	t.Helper()
	var out sides
	synctest.Test(t, func(t *testing.T) {
		choice := choiceOf(t, srv, "http://fake/v1")
		defer choice.Close()
		base := labs.NewEngines(labs.EnginesConfig{})
		defer base.Close()
		lab := newLab(base)
		r, errs := lab.Decode(vals)
		if len(errs) > 0 {
			t.Fatalf("decode: %v", errs)
		}
		ctx := t.Context()
		onServer, tally := choice.ServerContext(ctx)
		out.tally = tally
		out.serverErr = r.Start(onServer, func(f labs.Frame) { out.server = f })
		out.twinErr = r.Start(choice.TwinContext(ctx), func(f labs.Frame) { out.twin = f })
	})
	return out
}

// choiceOf is the engine choice of the server srv answers for, reached
// in memory as baseURL, modelled as the engine's default deployment.
func choiceOf(t *testing.T, srv http.Handler, baseURL string) *labs.EngineChoice {
	t.Helper()
	choice, err := labs.NewEngineChoice(labs.UpstreamConfig{
		Client: &upstream.Client{BaseURL: baseURL, HTTP: upstreamtest.InMemory(srv), RunningCounts: true},
		Model:  "fake-model", Deployment: engine.DefaultConfig(),
	}, labs.EnginesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return choice
}

// budgetLab is the latency-budget lab on the fake support desk.
func budgetLab(t *testing.T) func(*labs.Engines) labs.Lab { return labtest.OnFakeDesk(t, budget.New) }

// streamingLab is the streaming lab with no ticker.
func streamingLab(t *testing.T) func(*labs.Engines) labs.Lab {
	return func(pool *labs.Engines) labs.Lab {
		return labtest.Must[*streaming.Lab](t)(streaming.New(labs.LiveConfig{Engines: pool, Tick: -1, RunTag: "t"}))
	}
}

// The budget lab sends one request to the server. Its batch of many must
// not be the bundled engine's batch under the server's name: on each side
// every request reuses that side's one model time, so the batch's
// percentiles move from one side to the other by exactly what the one
// request's first word moved, and the page says where the model time
// came from.
func TestBudgetBatchOnTheServerReusesItsMeasuredModelTime(t *testing.T) {
	fake := &upstreamtest.Fake{Format: upstreamtest.VLLM, TTFT: 400 * time.Millisecond, Gap: 40 * time.Millisecond}
	got := runBothSides(t, fake, budgetLab(t), labs.Values{"answerTokens": 50.0, "requests": 40.0})
	if got.serverErr != nil || got.twinErr != nil || got.server.Error != "" || got.twin.Error != "" {
		t.Fatalf("errors: server %v %q, twin %v %q", got.serverErr, got.server.Error, got.twinErr, got.twin.Error)
	}
	if got.tally.Sent() != 1 {
		t.Errorf("the run sent the server %d requests, want the one", got.tally.Sent())
	}
	s, w := labtest.StatMap(t, got.server), labtest.StatMap(t, got.twin)
	moved := s["first_word_ms"] - w["first_word_ms"]
	if moved < 300 {
		t.Fatalf("the one request's first word moved %.1f ms from the twin to a server 400 ms to its first token", moved)
	}
	for _, key := range []string{"mean_ms", "p50_ms", "p95_ms", "p99_ms", "judged_ms"} {
		if d := s[key] - w[key]; math.Abs(d-moved) > 1.5 {
			t.Errorf("%s: server %.1f, twin %.1f (moved %.1f ms); want it to move as the one request did, %.1f ms", key, s[key], w[key], d, moved)
		}
	}
	for _, want := range []string{"reuse this request's model time from that server", "how it would queue"} {
		if !strings.Contains(got.server.Status, want) {
			t.Errorf("server status %q does not say %q", got.server.Status, want)
		}
	}
	if why := labtest.StatOf(t, got.server, "p95_ms").Why; !strings.Contains(why, "model time to the first word, the one request's") {
		t.Errorf("the p95 why panel does not name the reused model time: %q", why)
	}
	if !strings.Contains(got.twin.Status, "model time from the bundled engine") {
		t.Errorf("twin status %q does not say its model time is the bundled engine's", got.twin.Status)
	}
}

// A server that ends its answers itself (no ignore_eos) fails the run
// with that cause in the tally, whatever the lab made of it: the
// streaming lab returns the error, the budget lab's pipeline turns the
// failed model call into its own ending. Neither shows figures of the
// short answer, and the budget lab never uses the chat's wording.
func TestEngineChoiceTalliesAShortAnswerInEveryLab(t *testing.T) {
	for _, tc := range []struct {
		name string
		lab  func(*testing.T) func(*labs.Engines) labs.Lab
		vals labs.Values
	}{
		{"streaming", streamingLab, labs.Values{"answerTokens": 300.0}},
		{"latency-budget", budgetLab, labs.Values{"answerTokens": 300.0, "requests": 20.0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := &upstreamtest.Fake{Format: upstreamtest.Ollama, TTFT: 400 * time.Millisecond, Gap: 40 * time.Millisecond, NaturalLength: 100}
			got := runBothSides(t, fake, tc.lab(t), tc.vals)
			var short *upstream.ShortAnswer
			if !errors.As(got.tally.Failure(), &short) || short.Wrote != 100 || short.Asked != 300 {
				t.Fatalf("tally failure %v, want a short answer of 100 of 300 tokens", got.tally.Failure())
			}
			if got.serverErr == nil && (!got.server.Final || got.server.Error == "") {
				t.Errorf("the run on the server neither failed nor ended with an error: %+v", got.server)
			}
			if got.serverErr == nil && len(got.server.Stats) > 0 {
				t.Errorf("the failed run shows %d stats", len(got.server.Stats))
			}
			if strings.Contains(got.server.Error, "Please ask again") {
				t.Errorf("a lab uses the chat's wording: %q", got.server.Error)
			}
			if got.twinErr != nil || got.twin.Error != "" {
				t.Errorf("the twin failed: %v %q", got.twinErr, got.twin.Error)
			}
		})
	}
}

// A run whose server answers in full leaves nothing in the tally; a
// failure the server reports mid-stream is kept.
func TestServerTallyFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		fake upstreamtest.Fake
		want string
	}{
		{"complete", upstreamtest.Fake{Format: upstreamtest.VLLM, TTFT: 50 * time.Millisecond, Gap: 5 * time.Millisecond}, ""},
		{"server error", upstreamtest.Fake{Format: upstreamtest.VLLM, TTFT: 50 * time.Millisecond, Gap: 5 * time.Millisecond, FailAfter: 5}, "upstream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runBothSides(t, &tc.fake, streamingLab(t), labs.Values{"answerTokens": 60.0})
			err := got.tally.Failure()
			if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("tally failure %v, want %q", err, tc.want)
			}
			if got.tally.Sent() != 1 {
				t.Errorf("sent %d, want 1", got.tally.Sent())
			}
		})
	}
}

// Every knob that makes the bundled engine play a hosted provider is
// refused for a run on a server when it is on, with a message under the
// knob and one summary naming them; off, nothing is refused.
func TestServerConflicts(t *testing.T) {
	pool := labs.NewEngines(labs.EnginesConfig{})
	defer pool.Close()
	streamingKnobs := streamingLab(t)(pool).Knobs()
	budgetKnobs := budgetLab(t)(pool).Knobs()
	for _, tc := range []struct {
		name   string
		knobs  []labs.Knob
		vals   labs.Values
		want   []string // knobs refused
		inText []string // in the summary
	}{
		{"nothing on", streamingKnobs, labs.Values{"rttMs": 0.0, "freshConnection": false, "tenantRate": 0.0, "speedCap": 0.0}, nil, nil},
		{"network", streamingKnobs, labs.Values{pipelinelab.KnobRTT: 190.0}, []string{pipelinelab.KnobRTT},
			[]string{"“Network round trip to the provider” models", "Set it as marked"}},
		{"hosted tier", streamingKnobs, labs.Values{pipelinelab.KnobRTT: 190.0, pipelinelab.KnobFresh: true, pipelinelab.KnobTenants: 9.0},
			[]string{pipelinelab.KnobRTT, pipelinelab.KnobFresh, pipelinelab.KnobTenants}, []string{"Set each as marked", "pick the bundled engine"}},
		{"speed cap", streamingKnobs, labs.Values{"speedCap": 100.0}, []string{"speedCap"}, []string{"“Model speed cap”"}},
		{"provider's GPU", budgetKnobs, labs.Values{pipelinelab.KnobGPU: "a100-80g"}, []string{pipelinelab.KnobGPU}, []string{"“Provider's GPU”"}},
		{"provider's GPU, own", budgetKnobs, labs.Values{pipelinelab.KnobGPU: pipelinelab.GPUOwn}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, summary := labs.ServerConflicts(tc.knobs, tc.vals)
			var got []string
			for _, e := range errs {
				got = append(got, e.Knob)
				if !strings.Contains(e.Message, "to run on that server") {
					t.Errorf("%s: %q does not say what to set", e.Knob, e.Message)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("refused %v, want %v", got, tc.want)
			}
			if (summary == "") != (len(tc.want) == 0) {
				t.Errorf("summary %q with %d knobs refused", summary, len(tc.want))
			}
			for _, w := range tc.inText {
				if !strings.Contains(summary, w) {
					t.Errorf("summary %q does not say %q", summary, w)
				}
			}
		})
	}
}
