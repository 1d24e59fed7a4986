package labs_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/upstream"
	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// sixty is the streaming lab streaming an answer of 60 tokens.
var sixty = labs.Values{"streaming": true, "answerTokens": 60.0}

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
			got := runBothSides(t, &upstreamtest.Fake{Format: format, TTFT: ttft, Gap: gap, StreamInterval: interval}, streamingLab(t), sixty)
			last, err := got.server, got.serverErr
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
	}
}

// A server that ends an answer before the tokens asked although the run
// asked for ignore_eos (Ollama) fails the run with that reason, instead
// of showing a shorter answer's figures as the run's.
func TestEngineChoiceRefusesAShortAnswer(t *testing.T) {
	got := runBothSides(t, &upstreamtest.Fake{Format: upstreamtest.Ollama, TTFT: 300 * time.Millisecond, Gap: 25 * time.Millisecond, NaturalLength: 10},
		streamingLab(t), sixty)
	var short *upstream.ShortAnswer
	if !errors.As(got.serverErr, &short) || short.Wrote != 10 || short.Asked != 60 {
		t.Fatalf("run error %v, want a short answer of 10 of 60 tokens", got.serverErr)
	}
}
