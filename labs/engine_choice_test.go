package labs_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/streaming"
)

// A lab run with the server's context measures the server: against a
// replay of a recorded run, the streaming lab's time to first token is the
// recorded one to the microsecond; the same settings with the twin's
// context run on the bundled engine modelling the deployment instead.
func TestEngineChoiceRunsTheLabOnTheServerAndItsTwin(t *testing.T) {
	tr := upstreamtest.Recorded()
	synctest.Test(t, func(t *testing.T) {
		srv := upstreamtest.New(tr, nil)
		choice := choiceOf(t, srv, "http://replay/v1")
		defer choice.Close()
		base := labs.NewEngines(labs.EnginesConfig{})
		defer base.Close()
		lab := labtest.Must[*streaming.Lab](t)(streaming.New(labs.LiveConfig{Engines: base, Tick: -1, RunTag: "t"}))
		start := func(ctx context.Context) labs.Frame {
			r, errs := lab.Decode(labs.Values{"streaming": true, "answerTokens": 60.0})
			if len(errs) > 0 {
				t.Fatalf("decode: %v", errs)
			}
			var last labs.Frame
			if err := r.Start(ctx, func(f labs.Frame) { last = f }); err != nil {
				t.Fatal(err)
			}
			if !last.Final || last.Error != "" {
				t.Fatalf("final %v, error %q", last.Final, last.Error)
			}
			return last
		}
		onServer, sent := choice.ServerContext(t.Context())
		server := start(onServer)
		twin := start(choice.TwinContext(t.Context()))
		if srv.Served() != 1 || sent.Sent() != 1 || base.Len() != 0 {
			t.Errorf("the server served %d requests (the run counted %d), the learners' pool started %d engines; want 1, 1 and 0", srv.Served(), sent.Sent(), base.Len())
		}
		got := labtest.Stat(t, server, "ttft_ms")
		if want := tr.Requests[0].TTFTMS; math.Abs(got-want) > 1e-3 {
			t.Errorf("server TTFT %.4f ms, recorded %.4f", got, want)
		}
		if tw := labtest.Stat(t, twin, "ttft_ms"); tw <= 0 || math.Abs(tw-got) < 1 {
			t.Errorf("twin TTFT %.3f ms: want the bundled engine's own figure, not the server's %.3f", tw, got)
		}
		if !strings.Contains(choice.Label, "http://replay/v1") || !strings.Contains(choice.Modelled, "llama-3.1-8b on h100-sxm") {
			t.Errorf("label %q, modelled %q", choice.Label, choice.Modelled)
		}
	})
}

func TestUpstreamConfigValidate(t *testing.T) {
	c := &upstream.Client{BaseURL: "http://x/v1"}
	bad := engine.DefaultConfig()
	bad.TP = 3
	for _, tc := range []struct {
		name string
		cfg  labs.UpstreamConfig
		want string
	}{
		{"no client", labs.UpstreamConfig{Model: "m", Deployment: engine.DefaultConfig()}, "no server address"},
		{"no model", labs.UpstreamConfig{Client: c, Deployment: engine.DefaultConfig()}, "no model name"},
		{"bad deployment", labs.UpstreamConfig{Client: c, Model: "m", Deployment: bad}, "upstream deployment"},
	} {
		if _, err := labs.NewEngineChoice(tc.cfg, labs.EnginesConfig{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
