package rag

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// The prompt's formula is its parts, exactly; its first token's is the
// roofline prefill of that prompt on the tier's GPU, within 10% of the
// time measured through the pipeline (the rest is the hop to the engine
// and a step already running, which the panel names).
func TestWhyMatchesTheRun(t *testing.T) {
	for name, vals := range map[string]labs.Values{"defaults": {}, "no passages": {knobTopK: 0.0},
		"20 passages, large tier": {knobTopK: 20.0, knobTier: "large"}} {
		t.Run(name, func(t *testing.T) {
			fs := runLab(t, vals)
			last := fs[len(fs)-1]
			labtest.CheckFormula(t, labtest.StatOf(t, last, statPromptTokens), 0)
			for _, key := range []string{statSystemTokens, statChunksTokens, statHistoryTokens, statAnswerTokens} {
				labtest.CheckFormula(t, labtest.StatOf(t, last, key), 0)
			}
			labtest.CheckFormula(t, labtest.StatOf(t, last, statTTFT), 0.10)
		})
	}
}
