package benchmark

import (
	"context"
	"math"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
)

// Against a server replaying a recorded real run, one request at a time,
// bench measures the recording: each TTFT and the mean TPOT of its gaps.
func TestRunHTTPMeasuresARecordedRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := upstreamtest.Recorded()
		srv := upstreamtest.New(tr, nil)
		target := HTTPTarget{Client: &upstream.Client{BaseURL: "http://replay/v1", HTTP: upstreamtest.InMemory(srv)}, Model: "recorded", Chat: true}
		reqs := make([]Request, len(tr.Requests))
		var wantTTFT, wantTPOT float64
		for i, q := range tr.Requests {
			// No max_tokens: whichever request is sent n-th plays recorded
			// request n at its recorded length.
			reqs[i] = Request{ID: "r", Prompt: "hi", PromptLen: q.InputTokens}
			wantTTFT += q.TTFTMS / float64(len(reqs))
			var sum float64
			for _, g := range q.ITLMS {
				sum += g
			}
			wantTPOT += sum / float64(len(q.ITLMS)) / float64(len(reqs))
		}
		outs, dur := RunHTTP(context.Background(), target, reqs, 1)
		r := Compute(outs, dur, []float64{99})
		if r.Completed != len(reqs) {
			t.Fatalf("completed %d of %d: %s", r.Completed, len(reqs), r.FirstError)
		}
		// Durations are whole nanoseconds: allow a microsecond of rounding.
		if math.Abs(r.TTFT.Mean-wantTTFT) > 1e-3 || math.Abs(r.TPOT.Mean-wantTPOT) > 1e-3 {
			t.Errorf("mean TTFT %.4f ms (recorded %.4f), mean TPOT %.4f ms (recorded %.4f)", r.TTFT.Mean, wantTTFT, r.TPOT.Mean, wantTPOT)
		}
	})
}
