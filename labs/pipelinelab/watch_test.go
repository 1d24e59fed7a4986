package pipelinelab

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// TestBusyNoteNamesTheLateStage: the busy note blames what ran late — a
// stage by its name, text as tokens — not always the tokens.
func TestBusyNoteNamesTheLateStage(t *testing.T) {
	tests := []struct {
		stage string
		want  string
	}{
		{pipeline.StageGuardrail, "the guardrail check finished up to 300 ms later"},
		{pipeline.StageRetrieval, "the retrieval lookup finished up to 300 ms later"},
		{"something new", "a pipeline stage finished up to 300 ms later"},
		{"", "tokens reached you up to 300 ms after the GPU made them"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			l := &lateness{}
			l.observe("", time.Second, time.Second) // a run of 1 s, on time
			l.observe(tc.stage, 100*time.Millisecond, 400*time.Millisecond)
			if got := l.note(); !strings.Contains(got, tc.want) {
				t.Errorf("note %q, want it to say %q", got, tc.want)
			}
		})
	}
}
