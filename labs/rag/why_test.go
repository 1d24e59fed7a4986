package rag

import (
	"regexp"
	"slices"
	"strings"
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

// The passages table counts each passage as the Passages figure's
// explanation adds it up: its number, title and text as the prompt holds
// them, one count in both places.
func TestPassageTableCountsAsTheExplanation(t *testing.T) {
	fs := runLab(t, labs.Values{knobTopK: 5.0})
	last := fs[len(fs)-1]
	m := passagesListRe.FindStringSubmatch(labtest.StatOf(t, last, statChunksTokens).Why)
	if m == nil {
		t.Fatalf("no passage list in %q", labtest.StatOf(t, last, statChunksTokens).Why)
	}
	explained := strings.Split(m[1], " + ")
	var table []string
	for _, tb := range last.Tables {
		if strings.HasPrefix(tb.Title, "Retrieved passages") {
			for _, row := range tb.Rows {
				table = append(table, row[3])
			}
		}
	}
	if len(table) != 5 || !slices.Equal(table, explained) {
		t.Errorf("the table counts the passages %v, the explanation %v", table, explained)
	}
}

// passagesListRe finds the passages' counts in the Passages explanation:
// "passages (59 + 54 + 48) 161".
var passagesListRe = regexp.MustCompile(`passages \(([0-9, +]+)\)`)
